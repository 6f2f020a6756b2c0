import { z } from 'zod';
import { parseAllowedHost } from './allowed-hosts';
import { parseSecretKeys, type SecretKey } from './secret-box';

const int = (fallback: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(fallback);

/**
 * `WEBHOOK_ALLOWED_HOSTS=127.0.0.1:9000,hooks.internal`: hosts (as written in the endpoint URL),
 * each with an optional port, exempt from the private-address refusal (allowed-hosts.ts).
 */
const allowedHosts = z
  .string()
  .optional()
  .transform((text) =>
    (text ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  )
  .refine((list) => list.every((entry) => parseAllowedHost(entry) !== undefined), 'each entry must be host, host:port, [ipv6] or [ipv6]:port');

/**
 * Every variable of the webhooks, read by the api (registration, the retry endpoint, enqueueing
 * with the retry options) and the worker (delivery): one shape, spread into both config modules.
 */
export const webhookEnvShape = {
  /** Hosts exempt from the SSRF guard (comma-separated host or host:port, as written in the URL). */
  WEBHOOK_ALLOWED_HOSTS: allowedHosts,
  /** Endpoints one tenant may register. */
  WEBHOOK_MAX_ENDPOINTS: int(20, 1, 1_000),
  /** Webhook deliveries running at once in one worker process (the webhooks bulkhead). */
  WEBHOOK_CONCURRENCY: int(20, 1, 1_000),
  /** Deliveries in flight to one endpoint at once, across every worker. */
  WEBHOOK_PER_ENDPOINT_CONCURRENCY: int(4, 1, 100),
  /** An endpoint failing every delivery for this many days is disabled. */
  WEBHOOK_DISABLE_AFTER_DAYS: int(5, 1, 90),
  WEBHOOK_CONNECT_TIMEOUT_MS: int(2_000, 100, 30_000),
  /** The whole call (connect, send, answer headers, the capped body). */
  WEBHOOK_TIMEOUT_MS: int(8_000, 100, 60_000),
  /** Delivery attempts per event (first call included). */
  WEBHOOK_MAX_ATTEMPTS: int(20, 1, 100),
  /** First retry delay; doubled each time up to WEBHOOK_RETRY_MAX_DELAY_MS, +-20% jitter. */
  WEBHOOK_RETRY_BASE_MS: int(5_000, 1, 3_600_000),
  WEBHOOK_RETRY_MAX_DELAY_MS: int(4 * 3_600_000, 1, 86_400_000),
  /**
   * How long the step hook keeps a tenant's endpoint list (listening-cache.ts; 0 = not kept, read
   * per event). Changes reach it at once by pub/sub: this only bounds a missed invalidation.
   */
  WEBHOOK_ENDPOINT_CACHE_MS: int(5_000, 0, 300_000),
  WEBHOOK_SECRET_KEYS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      try {
        return parseSecretKeys(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    })
    .describe('Keys sealing webhook signing secrets at rest (AES-256-GCM): <id>:<base64 of 32 bytes>,...; the first seals, every one opens'),
};

export interface WebhookConfig {
  allowedHosts: string[];
  maxEndpoints: number;
  concurrency: number;
  perEndpointConcurrency: number;
  disableAfterMs: number;
  connectTimeoutMs: number;
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxDelayMs: number;
  endpointCacheMs: number;
  /** WEBHOOK_SECRET_KEYS: the first seals the secrets written, every one opens (secret-box.ts). */
  secretKeys: SecretKey[];
}

type WebhookEnv = { [K in keyof typeof webhookEnvShape]: z.infer<(typeof webhookEnvShape)[K]> };

export function toWebhookConfig(c: WebhookEnv): WebhookConfig {
  return {
    allowedHosts: c.WEBHOOK_ALLOWED_HOSTS,
    maxEndpoints: c.WEBHOOK_MAX_ENDPOINTS,
    concurrency: c.WEBHOOK_CONCURRENCY,
    perEndpointConcurrency: c.WEBHOOK_PER_ENDPOINT_CONCURRENCY,
    disableAfterMs: c.WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000,
    connectTimeoutMs: c.WEBHOOK_CONNECT_TIMEOUT_MS,
    timeoutMs: c.WEBHOOK_TIMEOUT_MS,
    maxAttempts: c.WEBHOOK_MAX_ATTEMPTS,
    retryBaseMs: c.WEBHOOK_RETRY_BASE_MS,
    retryMaxDelayMs: c.WEBHOOK_RETRY_MAX_DELAY_MS,
    endpointCacheMs: c.WEBHOOK_ENDPOINT_CACHE_MS,
    secretKeys: c.WEBHOOK_SECRET_KEYS,
  };
}

export const DEFAULT_WEBHOOK_CONFIG: WebhookConfig = toWebhookConfig(z.object(webhookEnvShape).parse({}));

/**
 * The delay before retry `attempt` (1 = the first retry): base x 2^(attempt-1), capped, times a
 * jitter in [0.8, 1.2). With the defaults (5 s, 4 h cap, 20 attempts) the 19 retries span
 * about 33.7 h on average and at least 26.9 h: past a day, like the Standard Webhooks schedules.
 */
export function retryDelayMs(config: Pick<WebhookConfig, 'retryBaseMs' | 'retryMaxDelayMs'>, attempt: number, random = Math.random): number {
  const exponential = Math.min(config.retryMaxDelayMs, config.retryBaseMs * 2 ** Math.min(40, Math.max(0, attempt - 1)));
  return Math.round(exponential * (0.8 + 0.4 * random()));
}
