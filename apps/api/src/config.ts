import { z } from 'zod';
import { breakerEnvShape, toBreakerConfig } from '@notify/pipeline';
import { parseEnv, sharedEnvShape } from '@notify/runtime';
import { loadTrackingConfig } from './tracking';

/** `API_KEYS=key1:tenant-a,key2:tenant-b`: each key belongs to one tenant. */
const apiKeys = z.string().min(1, 'must list at least one key:tenant pair').transform((text, ctx) => {
  const result: { key: string; tenant: string }[] = [];
  for (const pair of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [key, tenant, ...rest] = pair.split(':');
    if (!key || !tenant || rest.length > 0 || key.length < 16 || !/^[A-Za-z0-9._-]+$/.test(tenant)) {
      ctx.addIssue({ code: 'custom', message: `'${pair.slice(0, 4)}…' must be <key of 16+ characters>:<tenant>` });
      return z.NEVER;
    }
    result.push({ key, tenant });
  }
  return result;
});

const schema = z.object({
  ...sharedEnvShape,
  ...breakerEnvShape,
  API_HOST: z.string().default('127.0.0.1'),
  API_PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  API_KEYS: apiKeys.default([{ key: 'dev-key-change-me-0001', tenant: 'dev' }]),
  ADMIN_API_KEY: z.string().min(16, 'must be at least 16 characters').default('dev-admin-key-change-me'),
  /** Record (idempotency key + status) lifetime: the idempotency window, at least 24 h. */
  RECORD_TTL_SECONDS: z.coerce.number().int().min(86_400, 'must be at least 86400 (the 24 h idempotency window)').default(7 * 86_400),
  BODY_LIMIT: z.string().regex(/^\d+(b|kb|mb)$/i, 'must look like 512kb or 2mb').default('2mb'),
});

export type ApiConfig = ReturnType<typeof loadConfig>;

export function loadConfig(env: Record<string, string | undefined>) {
  const c = parseEnv('api', schema, env);
  return {
    env: c.NODE_ENV,
    host: c.API_HOST,
    port: c.API_PORT,
    redisUrl: c.REDIS_URL,
    apiKeys: c.API_KEYS,
    adminApiKey: c.ADMIN_API_KEY,
    recordTtlSeconds: c.RECORD_TTL_SECONDS,
    budget: c.CASCADE_BUDGET,
    breaker: toBreakerConfig(c),
    bodyLimit: c.BODY_LIMIT,
    requireDurableRedis: c.REQUIRE_DURABLE_REDIS ?? c.NODE_ENV === 'production',
    shutdownGraceMs: c.SHUTDOWN_GRACE_MS,
    logLevel: c.LOG_LEVEL,
    tracking: loadTrackingConfig(env),
  };
}
