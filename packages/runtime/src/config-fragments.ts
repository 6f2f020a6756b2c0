import { z } from 'zod';
import { formatConfigIssues } from '@notify/core';
import { DEV_DEFAULTS } from './dev-defaults';
import { parseClusterNodes, type RedisTarget } from './redis-connection';

/** The log levels pino knows; every app's LOG_LEVEL. */
export const logLevelEnv = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

/** An on/off env flag (`true`/`false`/`1`/`0`) with its default. */
export const booleanEnv = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

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
  /**
   * Partitions of the keyspace (docs/partitions.md): every process must use the same value, and
   * changing it needs the documented migration. 1 on a single Redis; e.g. 16 on a cluster.
   */
  PARTITIONS: z.coerce.number().int().min(1).max(4_096).default(1),
  REDIS_STARTUP_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(3_600_000)
    .default(300_000)
    .describe('How long a starting process waits for its Redis (down, frozen or failing over) before it exits 1'),
  /** Seed nodes of a Redis Cluster (`host:port,host:port,...`): set, every connection is an ioredis Cluster and REDIS_URL is not used. */
  REDIS_CLUSTER_NODES: z
    .string()
    .optional()
    .superRefine((text, ctx) => {
      try {
        parseClusterNodes(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `must be host:port,host:port,...: ${(error as Error).message}` });
      }
    }),
};

/** Where the shared variables put the platform's Redis: REDIS_URL, or the cluster of REDIS_CLUSTER_NODES. */
export function toRedisTarget(c: { REDIS_URL: string; REDIS_CLUSTER_NODES?: string | undefined; REDIS_STARTUP_TIMEOUT_MS?: number }): RedisTarget {
  const clusterNodes = parseClusterNodes(c.REDIS_CLUSTER_NODES);
  const startup = c.REDIS_STARTUP_TIMEOUT_MS === undefined ? {} : { startupTimeoutMs: c.REDIS_STARTUP_TIMEOUT_MS };
  return clusterNodes ? { url: c.REDIS_URL, clusterNodes, ...startup } : { url: c.REDIS_URL, ...startup };
}

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
