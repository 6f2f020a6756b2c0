import { z } from 'zod';
import { formatConfigIssues } from '@notify/core';
import { DEV_DEFAULTS } from './dev-defaults';

/** The log levels pino knows; every app's LOG_LEVEL. */
export const logLevelEnv = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

/** Env fields every process shares, defined once (each app's config.ts composes them). */
export const sharedEnvShape = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .default(DEV_DEFAULTS.redisUrl),
  LOG_LEVEL: logLevelEnv,
  /** Production profile: refuse a Redis that may evict keys or has no AOF. Defaults on in production. */
  REQUIRE_DURABLE_REDIS: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .optional(),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(300_000).default(15_000),
  CASCADE_BUDGET: z.coerce.number().int().min(1).max(10).default(3),
};

/**
 * Parses `env` with `schema` or throws one readable error naming every bad variable (the one
 * format of every config site: core's `formatConfigIssues`).
 */
export function parseEnv<T extends z.ZodType>(app: string, schema: T, env: Record<string, string | undefined>): z.infer<T> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw new Error(formatConfigIssues(app, parsed.error));
  return parsed.data;
}

/**
 * parseEnv over the variables of `env` named `<prefix>...` that are set: an empty value counts
 * as unset (its default applies), and the rest of the environment is not the schema's business.
 */
export function parsePrefixedEnv<T extends z.ZodType>(app: string, prefix: string, schema: T, env: Record<string, string | undefined>): z.infer<T> {
  const relevant = Object.fromEntries(Object.entries(env).filter(([key, value]) => key.startsWith(prefix) && value !== undefined && value.trim() !== ''));
  return parseEnv(app, schema, relevant);
}
