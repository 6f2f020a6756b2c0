import { z } from 'zod';

/** Env fields every process shares, defined once (each app's config.ts composes them). */
export const sharedEnvShape = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').default('redis://127.0.0.1:6379'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Production profile: refuse a Redis that may evict keys or has no AOF. Defaults on in production. */
  REQUIRE_DURABLE_REDIS: z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1').optional(),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(300_000).default(15_000),
  CASCADE_BUDGET: z.coerce.number().int().min(1).max(10).default(3),
};

/** Parses `env` with `schema` or throws one readable error naming every bad variable. */
export function parseEnv<T extends z.ZodType>(app: string, schema: T, env: Record<string, string | undefined>): z.infer<T> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`).join('\n');
    throw new Error(`invalid ${app} configuration:\n${lines}`);
  }
  return parsed.data;
}
