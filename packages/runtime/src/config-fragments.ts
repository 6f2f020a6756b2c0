import { z } from 'zod';
import { formatConfigIssues } from '@notify/core';
import { DEV_DEFAULTS } from './dev-defaults';
import { applyEnvRenames, NO_RENAMES, type EnvRenames } from './env-renames';
import { parseClusterNodes, type RedisTarget } from './redis-connection';

/** The log levels pino knows; every app's LOG_LEVEL. */
export const logLevelEnv = z
  .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  .default('info')
  .describe('pino level: `fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent`. Request lines are at `debug`.');

/** An on/off env flag (`true`/`false`/`1`/`0`) with its default. */
export const booleanEnv = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

/** An on/off flag whose unset default depends on NODE_ENV (the caller applies it). */
const productionFlag = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .optional();

/** Env fields every process shares, defined once (each app's config.ts composes them). */
export const sharedEnvShape = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development').meta({
    description:
      '`development`, `test` or `production`. Production refuses development keys and weak secrets (api), requires a durable Redis, turns the history on and is the profile of the compose file.',
    mustSet: '`production`',
  }),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .default(DEV_DEFAULTS.redisUrl)
    .meta({
      description: 'The Redis holding queues, records, breakers and the process registry (`redis://` or `rediss://`).',
      mustSet: 'your Redis (on a Redis Cluster: `REDIS_CLUSTER_NODES` and `PARTITIONS` instead, [docs/cluster.md](docs/cluster.md))',
    }),
  LOG_LEVEL: logLevelEnv,
  REQUIRE_DURABLE_REDIS: productionFlag.meta({
    description: 'Refuse to start on a Redis without `maxmemory-policy noeviction` and AOF (`true`/`false`/`1`/`0`).',
    defaultText: 'on in production',
  }),
  SHUTDOWN_GRACE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(300_000)
    .default(15_000)
    .describe('On SIGTERM, how long in-flight work may finish before the process exits anyway.'),
  CASCADE_BUDGET: z.coerce.number().int().min(1).max(10).default(3).describe('External provider calls per notification, at most (BI8).'),
  PARTITIONS: z.coerce
    .number()
    .int()
    .min(1)
    .max(4_096)
    .default(1)
    .describe(
      'Partitions of the keyspace ([docs/cluster.md](cluster.md)): every process must use the same value; changing it needs the documented migration. 1 on a single Redis; e.g. 16 on a cluster.',
    ),
  REDIS_STARTUP_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(3_600_000)
    .default(300_000)
    .describe('How long a starting process waits for its Redis (down, frozen or failing over), retrying with a back-off and logging, before it exits 1.'),
  REDIS_CLUSTER_NODES: z
    .string()
    .optional()
    .superRefine((text, ctx) => {
      try {
        parseClusterNodes(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `must be host:port,host:port,...: ${(error as Error).message}` });
      }
    })
    .describe('Seed nodes of a Redis Cluster (`host:port,host:port,...`): set, every connection is an ioredis Cluster and `REDIS_URL` is not used.'),
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
  return parseRenamedEnv(app, schema, env, NO_RENAMES).values;
}

/**
 * parseEnv after the app's renames: an old name's value is read under its new name (a warning
 * each, for the caller to log once at start), a replaced variable is refused in the same message
 * as every other bad variable.
 */
export function parseRenamedEnv<T extends z.ZodType>(
  app: string,
  schema: T,
  env: Record<string, string | undefined>,
  renames: EnvRenames,
): { values: z.infer<T>; warnings: string[] } {
  const renamed = applyEnvRenames(env, renames);
  const parsed = schema.safeParse(renamed.env);
  const refusals = renamed.refusals.map(({ name, reason }) => ({ code: 'custom' as const, path: [name], message: reason, input: env[name] }));
  if (!parsed.success || refusals.length > 0) {
    throw new Error(formatConfigIssues(app, new z.ZodError([...refusals, ...(parsed.success ? [] : parsed.error.issues)])));
  }
  return { values: parsed.data, warnings: renamed.warnings };
}

/**
 * parseEnv over the variables of `env` named `<prefix>...` that are set: an empty value counts
 * as unset (its default applies), and the rest of the environment is not the schema's business.
 */
export function parsePrefixedEnv<T extends z.ZodType>(app: string, prefix: string, schema: T, env: Record<string, string | undefined>): z.infer<T> {
  const relevant = Object.fromEntries(Object.entries(env).filter(([key, value]) => key.startsWith(prefix) && value !== undefined && value.trim() !== ''));
  return parseEnv(app, schema, relevant);
}
