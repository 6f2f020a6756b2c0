import { z } from 'zod';
import { DEFAULT_CASCADE_CONFIG, breakerEnvShape, fairShareEnvShape, stepBatchEnv, toBreakerConfig } from '@notify/pipeline';
import {
  DEV_DEFAULTS,
  booleanEnv,
  parseRenamedEnv,
  scheduleApiEnvShape,
  serviceEnvShape,
  toHistoryConfig,
  toHttpServerLimits,
  toProviderKinds,
  toProviderRoutes,
  tenantsEnvShape,
  readTenantsFile,
  tenantLimitLookup,
  toDefaultTenantLimits,
  toRedisTarget,
  type EnvRenames,
  toConsentConfig,
} from '@notify/runtime';
import { loadProviderIdentities } from '@notify/providers';
import { toWebhookConfig, webhookEnvShape } from '@notify/webhooks';
import { backpressureEnvShape, toBackpressureConfig } from './backpressure-env';
import { apiKeysEnv, keyRuleIssues, type KeyEntry } from './key-rules';
import { bodyLimit, eventSecrets } from './config-values';
import { DEFAULT_SNS_CERT_HOSTS, parseCertHostPatterns } from './routes/provider-events/sns-signature';
import { loadTrackingConfig } from './tracking';

export { PRODUCTION_KEY_LENGTH, PRODUCTION_KEY_VARIETY } from './key-rules';

/** The api's former names: read for one release with a warning naming the new one. */
export const API_RENAMES: EnvRenames = {
  renamed: {
    STEP_BATCH_MAX: 'INTAKE_BATCH_MAX',
    STEP_BATCH_WINDOW_MS: 'INTAKE_BATCH_WINDOW_MS',
    SUPPRESSION_TTL_SECONDS: 'PROVIDER_EVENT_SUPPRESSION_TTL_SECONDS',
    BODY_LIMIT: 'API_BODY_LIMIT',
  },
  replaced: {},
};

const port = z.coerce.number().int().min(0).max(65_535);

/** The variables only the api reads (the docs list them in its own section). */
export const apiOwnEnvShape = {
  ...backpressureEnvShape,
  ...tenantsEnvShape,
  ...fairShareEnvShape,
  ...scheduleApiEnvShape,
  API_HOST: z.string().default(DEV_DEFAULTS.host).meta({
    description: 'Interface of the public port (`0.0.0.0` in a container).',
    mustSet: '`0.0.0.0` (or the interface your load balancer reaches)',
  }),
  API_PORT: port.default(DEV_DEFAULTS.apiPort).describe('The public port: `/v1/*`, `/admin/*`, `/healthz`, `/readyz`. No `/metrics` here.'),
  API_METRICS_HOST: z.string().default(DEV_DEFAULTS.host).meta({
    description: 'Interface of the metrics listener (`/metrics`, `/healthz`, `/readyz`); loopback unless Prometheus scrapes from elsewhere.',
    mustSet: 'the interface Prometheus scrapes (loopback by default)',
  }),
  API_METRICS_PORT: port.default(DEV_DEFAULTS.apiMetricsPort).describe('Port of the metrics listener (0 picks a free one).'),
  API_KEYS: apiKeysEnv.optional().meta({
    description:
      '`key:tenant` pairs, comma-separated (each trimmed); a key belongs to one tenant and may appear once; an empty list is refused. Keys of 16+ characters; in production required, 32+ characters of 8+ different characters.',
    defaultText: '`dev-key-change-me-0001:dev` (development only)',
    mustSet: "the tenants' keys, `key:tenant,...` (32+ random characters each)",
  }),
  ADMIN_API_KEY: z.string().trim().min(16, 'must be at least 16 characters').optional().meta({
    description: 'The key of `/admin/queues` (bull-board); never equal to a tenant key. In production required, 32+ characters of 8+ different characters.',
    defaultText: '`dev-admin-key-change-me` (development only)',
    mustSet: "the admin key (32+ random characters, no tenant's key)",
  }),
  ADMIN_SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 86_400)
    .default(8 * 3600)
    .describe('Lifetime of a browser sign-in to `/admin` (not renewed by use).'),
  ADMIN_COOKIE_SECURE: z
    .enum(['auto', 'always', 'never'])
    .default('auto')
    .describe("The admin cookies' `Secure` flag: `auto` (when the request came over https), `always`, `never`."),
  ADMIN_TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((t) =>
      (t ?? '')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .meta({
      description:
        "Proxies whose `X-Forwarded-For` names the admin console's client (express `trust proxy`: IPs, CIDRs, `loopback`/`linklocal`/`uniquelocal`), comma-separated; the admin sign-in throttle counts that client ([docs/security.md](security.md)).",
      defaultText: 'none',
    }),
  RECORD_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(86_400, 'must be at least 86400 (the 24 h idempotency window)')
    .default(7 * 86_400)
    .describe('Lifetime of a notification record and its idempotency key; at least 86400 (the 24 h window).'),
  HISTORY_MAX_LIST_LIMIT: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000)
    .default(100)
    .describe(
      'The largest `limit` of one page of `GET /v1/notifications` and `GET /v1/recipients/{id}/notifications` (1–1000); a larger one is a 400 naming `limit`.',
    ),
  API_BODY_LIMIT: bodyLimit.default(2 * 1024 * 1024).meta({
    description: 'Largest request body (`512kb`, `2mb`); a larger declared `Content-Length` is answered 413 before the body is read.',
    defaultText: '`2mb`',
  }),
  INTAKE_WAIT_REPLICAS: z.coerce.number().int().min(0).max(10).optional().meta({
    description: "Replicas an intake's writes must reach before the 202 (Redis `WAIT`).",
    defaultText: '1 on a cluster, 0 on a single Redis',
  }),
  INTAKE_WAIT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(100)
    .describe('How long one intake `WAIT` may block; past it the notification is accepted anyway (counted `short`).'),
  INTAKE_BATCH_MAX: stepBatchEnv.max.describe(
    'First steps of one lane (channel, priority class, partition) per BullMQ batch job at most, at batch and single intake; `1` = one `step` job per notification ([docs/benchmarks-pipeline.md](benchmarks-pipeline.md)).',
  ),
  INTAKE_BATCH_WINDOW_MS: stepBatchEnv.windowMs.describe(
    "How long a single POST's first step waits for others of its lane to share its batch job (the 202 follows the add); `0` = added at once, one job each.",
  ),
  API_COALESCE_WRITES: booleanEnv(true).describe(
    "The api's Redis commands of one event-loop turn (a batch's intake scripts, the turn's job adds) leave in one socket write (the socket is corked until the turn's end; bytes, order and replies unchanged). Single-node Redis only; a Cluster is left alone. `false` writes each command at once.",
  ),
  PROVIDER_EVENT_SECRETS: eventSecrets.meta({
    description:
      "Provider events in (`POST /v1/providers/{provider}/events`, [docs/provider-events.md](provider-events.md)): `name:secret` pairs, comma-separated (secrets of 16+ characters, compared in constant time). A provider not listed answers 404. In production each secret has 32+ characters of 8+ different ones, is its provider's own and is no tenant or admin key.",
    defaultText: 'none',
    mustSet: 'one secret per provider that posts events (`name:secret,...`, 32+ random characters each)',
  }),
  SNS_SIGNING_CERT_HOSTS: z
    .string()
    .default(DEFAULT_SNS_CERT_HOSTS)
    .transform((raw, ctx) => {
      try {
        return parseCertHostPatterns(raw);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    })
    .meta({
      description:
        "Where Amazon SNS message signatures' certificates may be downloaded from: host patterns of `SigningCertURL`, comma-separated, `*` standing for one DNS label; `http://` is allowed for loopback hosts only.",
      defaultText: '`sns.*.amazonaws.com,sns.*.amazonaws.com.cn`',
    }),
  PROVIDER_EVENT_SUPPRESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .default(DEFAULT_CASCADE_CONFIG.suppressionTtlSeconds)
    .describe("How long a hard bounce or a complaint (provider events) suppresses the recipient's channel; 0 turns it off."),
};

/** Every variable the api reads (besides TRACKING_*: ./tracking/config.ts), exported for the docs. */
export const apiEnvShape = {
  ...serviceEnvShape,
  ...breakerEnvShape,
  ...webhookEnvShape,
  ...apiOwnEnvShape,
};

/** A field that failed its own check still reaches the refinement raw: null marks it unreadable. */
const readable = <T>(value: unknown, ok: (v: unknown) => boolean): T | undefined | null => (value === undefined ? undefined : ok(value) ? (value as T) : null);

const schema = z.object(apiEnvShape).superRefine(
  (c, ctx) => {
    const raw = c as Record<string, unknown>;
    const issues = keyRuleIssues(
      {
        production: c.NODE_ENV === 'production',
        apiKeys: readable<KeyEntry[]>(raw.API_KEYS, Array.isArray),
        adminKey: readable<string>(raw.ADMIN_API_KEY, (v) => typeof v === 'string' && v.length >= 16),
        eventSecrets: readable<Map<string, string>>(raw.PROVIDER_EVENT_SECRETS, (v) => v instanceof Map),
      },
      DEV_DEFAULTS.adminApiKey,
    );
    for (const { path, message } of issues) ctx.addIssue({ code: 'custom', path: [path], message });
    if (c.TENANT_RATE_BURST !== undefined && c.TENANT_RATE_PER_SECOND === undefined) {
      ctx.addIssue({ code: 'custom', path: ['TENANT_RATE_BURST'], message: 'is the burst of TENANT_RATE_PER_SECOND, which is not set' });
    }
    // Run even when other variables failed: one message names every bad variable.
  },
  { when: () => true },
);

export type ApiConfig = ReturnType<typeof loadConfig>;

export function loadConfig(env: Record<string, string | undefined>) {
  const { values: c, warnings } = parseRenamedEnv('api', schema, env, API_RENAMES);
  const tenantsFile = readTenantsFile(c.TENANTS_FILE);
  const apiKeys = c.API_KEYS ?? [{ key: DEV_DEFAULTS.apiKey, tenant: DEV_DEFAULTS.tenant }];
  return {
    /** Former variable names read this time: logged once at start. */
    warnings,
    env: c.NODE_ENV,
    host: c.API_HOST,
    port: c.API_PORT,
    metricsHost: c.API_METRICS_HOST,
    metricsPort: c.API_METRICS_PORT,
    redisUrl: c.REDIS_URL,
    redis: toRedisTarget(c),
    partitions: c.PARTITIONS,
    stepBatch: { max: c.INTAKE_BATCH_MAX, windowMs: c.INTAKE_BATCH_WINDOW_MS },
    coalesceWrites: c.API_COALESCE_WRITES,
    backpressure: toBackpressureConfig(c),
    intakeWait: { replicas: c.INTAKE_WAIT_REPLICAS ?? (c.REDIS_CLUSTER_NODES ? 1 : 0), timeoutMs: c.INTAKE_WAIT_TIMEOUT_MS },
    apiKeys,
    /** The configured tenants (API_KEYS and TENANTS_FILE): the per-tenant metrics' label values. */
    tenants: [...new Set([...apiKeys.map((k) => k.tenant), ...tenantsFile.keys()])],
    adminApiKey: c.ADMIN_API_KEY ?? DEV_DEFAULTS.adminApiKey,
    adminSession: { ttlSeconds: c.ADMIN_SESSION_TTL_SECONDS, secureCookie: c.ADMIN_COOKIE_SECURE },
    adminTrustedProxies: c.ADMIN_TRUSTED_PROXIES,
    recordTtlSeconds: c.RECORD_TTL_SECONDS,
    scheduleMaxAheadSeconds: c.SCHEDULE_MAX_AHEAD,
    budget: c.CASCADE_BUDGET,
    breaker: toBreakerConfig(c),
    providerRoutes: toProviderRoutes(c),
    providerKinds: toProviderKinds(c),
    /** Who may send provider events: each provider's channel and whether its message ids are idempotency keys. */
    providerIdentities: loadProviderIdentities(c.PROVIDERS_FILE),
    snsCertHosts: c.SNS_SIGNING_CERT_HOSTS,
    /** TENANTS_FILE: each tenant's defaults (time zone, quiet hours), by name. */
    tenantSettings: (tenant: string) => tenantsFile.get(tenant),
    /** Each tenant's intake limits: its TENANTS_FILE `limits` over the TENANT_* defaults (undefined: none). */
    tenantLimits: tenantLimitLookup(tenantsFile, toDefaultTenantLimits(c)),
    laneFairShare: c.LANE_FAIR_SHARE,
    /** Bytes. */
    bodyLimit: c.API_BODY_LIMIT,
    http: toHttpServerLimits(c),
    history: { ...toHistoryConfig(c), maxListLimit: c.HISTORY_MAX_LIST_LIMIT },
    requireDurableRedis: c.REQUIRE_DURABLE_REDIS ?? c.NODE_ENV === 'production',
    shutdownGraceMs: c.SHUTDOWN_GRACE_MS,
    logLevel: c.LOG_LEVEL,
    consent: toConsentConfig(c, c.NODE_ENV === 'production'),
    tracking: loadTrackingConfig(env),
    webhooks: toWebhookConfig(c),
    providerEvents: { secrets: c.PROVIDER_EVENT_SECRETS, suppressionTtlSeconds: c.PROVIDER_EVENT_SUPPRESSION_TTL_SECONDS },
  };
}
