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
  WEBHOOK_ALLOWED_HOSTS: allowedHosts.meta({
    description:
      "Webhook endpoint hosts exempt from the SSRF guard: comma-separated host names or IP literals, each optionally with a port (`127.0.0.1:9000`, `[::1]:9000`; without one every port), matched against the URL's host as written (a name that resolves to an allowed IP is not allowed by it). The tests allow `127.0.0.1`. See [docs/webhooks.md](webhooks.md).",
    defaultText: 'none',
  }),
  WEBHOOK_MAX_ENDPOINTS: int(20, 1, 1_000).describe('Webhook endpoints one tenant may register (one more is a 400 naming `url`).'),
  WEBHOOK_CONCURRENCY: int(20, 1, 1_000).describe(
    "Webhook deliveries running at once in one worker process: the webhooks' own bulkhead, apart from the channel lanes.",
  ),
  WEBHOOK_PER_ENDPOINT_CONCURRENCY: int(4, 1, 100).describe(
    'Deliveries in flight to one endpoint at once, across every worker (a Redis semaphore with leases).',
  ),
  WEBHOOK_DISABLE_AFTER_DAYS: int(5, 1, 90).describe(
    'An endpoint whose every delivery failed for this many days is disabled (`endpoint.disabled` event; `GET /v1/webhooks/{id}` shows `disabled`).',
  ),
  WEBHOOK_CONNECT_TIMEOUT_MS: int(2_000, 100, 30_000).describe('Connect timeout of a webhook call.'),
  WEBHOOK_TIMEOUT_MS: int(8_000, 100, 60_000).describe('Whole-call timeout of a webhook call (answer headers and the capped body read).'),
  WEBHOOK_MAX_ATTEMPTS: int(20, 1, 100).describe(
    'Calls per event and endpoint, the first included; with the defaults the retries span about 34 h (at least 26.9 h).',
  ),
  WEBHOOK_RETRY_BASE_MS: int(5_000, 1, 3_600_000).describe('First retry delay; doubled per retry up to `WEBHOOK_RETRY_MAX_DELAY_MS`, each with ±20 % jitter.'),
  WEBHOOK_RETRY_MAX_DELAY_MS: int(4 * 3_600_000, 1, 86_400_000).describe('The longest delay between two retries (4 h).'),
  WEBHOOK_ENDPOINT_CACHE_MS: int(5_000, 0, 300_000).describe(
    "How long a process keeps a tenant's webhook endpoint list for the step hook (the event published after each delivery), so a tenant without endpoints costs no Redis read per notification (0 to 300000; `0`: not kept, read per event). Every endpoint change (create, delete, rotate-secret, disable) reaches the cache at once over Redis pub/sub (channel `{notify:webhooks}:endpoints-changed`); this TTL only bounds a missed message. At most 10,000 tenants are kept.",
  ),
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
    .meta({
      description:
        'Keys sealing webhook signing secrets at rest (AES-256-GCM): `<id>:<base64 of 32 bytes>`, comma-separated; the first seals, every one opens ([docs/webhooks.md](webhooks.md), rotation). Unset: secrets are stored as they are.',
      defaultText: 'none',
    }),
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
