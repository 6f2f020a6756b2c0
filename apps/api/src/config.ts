import { z } from 'zod';
import { DEFAULT_CASCADE_CONFIG, breakerEnvShape, stepBatchEnv, toBreakerConfig } from '@notify/pipeline';
import {
  DEV_DEFAULTS,
  booleanEnv,
  historyEnvShape,
  httpServerLimitsEnvShape,
  parseEnv,
  providersEnvShape,
  sharedEnvShape,
  toHistoryConfig,
  toHttpServerLimits,
  toProviderKinds,
  toProviderRoutes,
  toRedisTarget,
} from '@notify/runtime';
import { toWebhookConfig, webhookEnvShape } from '@notify/webhooks';
import { parseProviderEventSecrets } from './routes/provider-events';
import { loadTrackingConfig } from './tracking';

/** Production keys: long enough that guessing is hopeless (a 32-character random key is ~190 bits). */
export const PRODUCTION_KEY_LENGTH = 32;

interface KeyEntry {
  key: string;
  tenant: string;
}

/**
 * `API_KEYS=key1:tenant-a,key2:tenant-b`: each key belongs to one tenant. Messages name a pair by
 * its position, never by any part of its key.
 */
const apiKeys = z
  .string()
  .min(1, 'must list at least one key:tenant pair')
  .transform((text, ctx) => {
    const result: KeyEntry[] = [];
    const seen = new Map<string, number>();
    text
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
      .forEach((pair, index) => {
        const position = index + 1;
        const [key, tenant, ...rest] = pair.split(':');
        if (!key || !tenant || rest.length > 0 || key.length < 16 || !/^[A-Za-z0-9._-]+$/.test(tenant)) {
          ctx.addIssue({ code: 'custom', message: `pair ${position} must be <key of 16+ characters>:<tenant>` });
          return;
        }
        const first = seen.get(key);
        if (first !== undefined) {
          // One key, two tenants: the lookup would silently pick one. Refused in every mode.
          ctx.addIssue({ code: 'custom', message: `pairs ${first} and ${position} use the same key (each key belongs to one tenant)` });
          return;
        }
        seen.set(key, position);
        result.push({ key, tenant });
      });
    return result;
  });

const bodyLimit = z
  .string()
  .regex(/^\d+(b|kb|mb)$/i, 'must look like 512kb or 2mb')
  .transform((text) => {
    const [, digits, unit] = /^(\d+)(b|kb|mb)$/i.exec(text) as RegExpExecArray;
    return Number(digits) * { b: 1, kb: 1024, mb: 1024 * 1024 }[(unit as string).toLowerCase() as 'b' | 'kb' | 'mb'];
  });

/** Every variable the api reads (besides TRACKING_*: ./tracking/config.ts), exported for the docs test. */
export const apiEnvShape = {
  ...sharedEnvShape,
  ...breakerEnvShape,
  ...httpServerLimitsEnvShape,
  ...historyEnvShape,
  /** Only the provider names per channel are read here (the breakers' routes); the workers build the adapters. */
  PROVIDERS_FILE: providersEnvShape.PROVIDERS_FILE,
  ...webhookEnvShape,
  /** The largest `limit` of one page of GET /v1/notifications (a larger one is a 400 naming `limit`). */
  HISTORY_MAX_LIST_LIMIT: z.coerce.number().int().min(1).max(1_000).default(100),
  API_HOST: z.string().default(DEV_DEFAULTS.host),
  API_PORT: z.coerce.number().int().min(0).max(65_535).default(DEV_DEFAULTS.apiPort),
  /** Where /metrics is served: its own listener, loopback by default, never the public port. */
  API_METRICS_HOST: z.string().default(DEV_DEFAULTS.host),
  API_METRICS_PORT: z.coerce.number().int().min(0).max(65_535).default(DEV_DEFAULTS.apiMetricsPort),
  /** Unset: the public development key (refused in production). */
  API_KEYS: apiKeys.optional(),
  /** Unset: the public development admin key (refused in production). */
  ADMIN_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Lifetime of a browser sign-in to /admin (fixed, not renewed by use). */
  ADMIN_SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 86_400)
    .default(8 * 3600),
  /** The admin cookies' Secure flag: `auto` sets it when the request came over https (or X-Forwarded-Proto says so). */
  ADMIN_COOKIE_SECURE: z.enum(['auto', 'always', 'never']).default('auto'),
  ADMIN_TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((t) =>
      (t ?? '')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .describe(
      "Proxies whose X-Forwarded-For names the admin console's client (express trust proxy: IPs, CIDRs, loopback/linklocal/uniquelocal); none by default",
    ),
  /** Record (idempotency key + status) lifetime: the idempotency window, at least 24 h. */
  RECORD_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(86_400, 'must be at least 86400 (the 24 h idempotency window)')
    .default(7 * 86_400),
  BODY_LIMIT: bodyLimit.default(2 * 1024 * 1024),
  /** Replicas an intake's writes must reach before the 202 (Redis WAIT; docs/partitions.md). Default 1 on a cluster, 0 on a single Redis. */
  INTAKE_WAIT_REPLICAS: z.coerce.number().int().min(0).max(10).optional(),
  /** How long one intake WAIT may block; past it the notification is accepted anyway (counted `short`). */
  INTAKE_WAIT_TIMEOUT_MS: z.coerce.number().int().min(1).max(10_000).default(100),
  /** First steps per batch job at most (docs/benchmarks-pipeline.md, "First-step batches"); 1 = one job per notification. */
  STEP_BATCH_MAX: stepBatchEnv.max,
  /** How long a single POST's first step waits for others of its lane to share its batch job; 0 = added at once. */
  STEP_BATCH_WINDOW_MS: stepBatchEnv.windowMs,
  /** Join the api's Redis socket writes of one event-loop turn (packages/pipeline/src/write-coalescer.ts); single-node Redis only. */
  API_COALESCE_WRITES: booleanEnv(true),
  /** Provider events in (docs/provider-events.md): `name:secret` pairs; a provider not listed is a 404. */
  PROVIDER_EVENT_SECRETS: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      try {
        return parseProviderEventSecrets(raw);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /** How long a hard bounce or complaint suppresses (recipient, channel); the worker's variable of the same name does it for permanent errors. */
  SUPPRESSION_TTL_SECONDS: z.coerce.number().int().min(0).default(DEFAULT_CASCADE_CONFIG.suppressionTtlSeconds),
};

/**
 * Key rules. Every mode: no key twice, the admin key is no tenant's key. Production: both set
 * explicitly (the development defaults are public) and each at least 32 characters.
 */
const schema = z.object(apiEnvShape).superRefine((c, ctx) => {
  const production = c.NODE_ENV === 'production';
  const issue = (path: 'API_KEYS' | 'ADMIN_API_KEY', message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (production && c.API_KEYS === undefined) issue('API_KEYS', 'must be set when NODE_ENV=production (the development key is public)');
  if (production && c.ADMIN_API_KEY === undefined) issue('ADMIN_API_KEY', 'must be set when NODE_ENV=production (the development admin key is public)');
  if (production) {
    (c.API_KEYS ?? []).forEach(({ key }, i) => {
      if (key.length < PRODUCTION_KEY_LENGTH) issue('API_KEYS', `the key of pair ${i + 1} is shorter than ${PRODUCTION_KEY_LENGTH} characters (production)`);
    });
    if (c.ADMIN_API_KEY !== undefined && c.ADMIN_API_KEY.length < PRODUCTION_KEY_LENGTH) {
      issue('ADMIN_API_KEY', `is shorter than ${PRODUCTION_KEY_LENGTH} characters (production)`);
    }
  }
  const admin = c.ADMIN_API_KEY ?? DEV_DEFAULTS.adminApiKey;
  const clash = (c.API_KEYS ?? []).findIndex(({ key }) => key === admin);
  if (clash >= 0) issue('ADMIN_API_KEY', `must differ from every tenant key (it equals the key of API_KEYS pair ${clash + 1})`);
});

export type ApiConfig = ReturnType<typeof loadConfig>;

export function loadConfig(env: Record<string, string | undefined>) {
  const c = parseEnv('api', schema, env);
  return {
    env: c.NODE_ENV,
    host: c.API_HOST,
    port: c.API_PORT,
    metricsHost: c.API_METRICS_HOST,
    metricsPort: c.API_METRICS_PORT,
    redisUrl: c.REDIS_URL,
    redis: toRedisTarget(c),
    partitions: c.PARTITIONS,
    stepBatch: { max: c.STEP_BATCH_MAX, windowMs: c.STEP_BATCH_WINDOW_MS },
    coalesceWrites: c.API_COALESCE_WRITES,
    intakeWait: { replicas: c.INTAKE_WAIT_REPLICAS ?? (c.REDIS_CLUSTER_NODES ? 1 : 0), timeoutMs: c.INTAKE_WAIT_TIMEOUT_MS },
    apiKeys: c.API_KEYS ?? [{ key: DEV_DEFAULTS.apiKey, tenant: DEV_DEFAULTS.tenant }],
    adminApiKey: c.ADMIN_API_KEY ?? DEV_DEFAULTS.adminApiKey,
    adminSession: { ttlSeconds: c.ADMIN_SESSION_TTL_SECONDS, secureCookie: c.ADMIN_COOKIE_SECURE },
    adminTrustedProxies: c.ADMIN_TRUSTED_PROXIES,
    recordTtlSeconds: c.RECORD_TTL_SECONDS,
    budget: c.CASCADE_BUDGET,
    breaker: toBreakerConfig(c),
    providerRoutes: toProviderRoutes(c),
    providerKinds: toProviderKinds(c),
    /** Bytes. */
    bodyLimit: c.BODY_LIMIT,
    http: toHttpServerLimits(c),
    history: { ...toHistoryConfig(c), maxListLimit: c.HISTORY_MAX_LIST_LIMIT },
    requireDurableRedis: c.REQUIRE_DURABLE_REDIS ?? c.NODE_ENV === 'production',
    shutdownGraceMs: c.SHUTDOWN_GRACE_MS,
    logLevel: c.LOG_LEVEL,
    tracking: loadTrackingConfig(env),
    webhooks: toWebhookConfig(c),
    providerEvents: { secrets: c.PROVIDER_EVENT_SECRETS, suppressionTtlSeconds: c.SUPPRESSION_TTL_SECONDS },
  };
}
