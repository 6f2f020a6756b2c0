import { z } from 'zod';
import { formatConfigIssues } from '@notify/core';
import { DEV_DEFAULTS, devOrigin } from '@notify/runtime';
import { usageError } from '@notify/platform-kit';
import { CLUSTER_SCHEME } from './commands/redis-connect';

/** Every variable the chaos CLI reads (exported for the configuration docs test). */
export const chaosEnvSchema = z.object({
  /** The simulators' control API (apps/simulators: SIM_CONTROL_PORT). */
  SIM_CONTROL_URL: z
    .string()
    .regex(/^https?:\/\/[^/\s]+\/?$/, `must be an origin like ${devOrigin(DEV_DEFAULTS.simControlPort)}`)
    .default(devOrigin(DEV_DEFAULTS.simControlPort))
    .describe("The simulators' control plane."),
  /** The simulated tracking stores (apps/simulators: TRACKING_STORES_PORT), as the api names them. */
  TRACKING_STORES_BASE_URL: z
    .string()
    .regex(/^https?:\/\/[^/\s]+\/?$/, `must be an origin like ${devOrigin(DEV_DEFAULTS.trackingStoresPort)}`)
    .default(devOrigin(DEV_DEFAULTS.trackingStoresPort))
    .describe('The simulated tracking stores.'),
  /** The platform's own Redis: breaker states, registered processes, CLIENT PAUSE. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL')
    .default(DEV_DEFAULTS.redisUrl)
    .describe("The platform's Redis (breakers, registered processes, `CLIENT PAUSE`)."),
  /** The platform's providers file: `kill-provider` finds a simulator provider's control API there (its `controlUrl`). */
  PROVIDERS_FILE: z
    .string()
    .min(1)
    .optional()
    .describe(
      "The platform's providers file: `kill-provider <name>` finds a simulated provider's control API there (its `controlUrl`), and `status` shows a breaker per provider.",
    ),
  /** The platform's Redis Cluster (`host:port,...`), when it runs on one: used instead of REDIS_URL. */
  REDIS_CLUSTER_NODES: z
    .string()
    .regex(/^\s*[^\s:,]+:\d{1,5}\s*(,\s*[^\s:,]+:\d{1,5}\s*)*$/, 'must be host:port,host:port,...')
    .optional()
    .describe("The platform's Redis Cluster (`host:port,...`), when it runs on one: used instead of `REDIS_URL`; `redis-pause` pauses every master."),
  /** One HTTP call to the control API may take this long. */
  CHAOS_HTTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000).describe('One call to the control plane may take this long.'),
  /** Connecting to Redis may take this long. */
  CHAOS_REDIS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3_000).describe('Connecting to Redis may take this long.'),
});

export interface ChaosConfig {
  controlUrl: string;
  /** PROVIDERS_FILE, when the platform runs with one. */
  providersFile?: string;
  storesUrl: string;
  redisUrl: string;
  httpTimeoutMs: number;
  redisTimeoutMs: number;
}

/** Env (flags override it) → config; a bad value is a usage error (exit 2), named with its variable. */
export function loadChaosConfig(env: Record<string, string | undefined>, overrides: Record<string, string | undefined> = {}): ChaosConfig {
  const parsed = chaosEnvSchema.safeParse({ ...pick(env), ...overrides });
  if (!parsed.success) {
    throw usageError(formatConfigIssues('chaos', parsed.error));
  }
  const c = parsed.data;
  return {
    controlUrl: c.SIM_CONTROL_URL.replace(/\/$/, ''),
    ...(c.PROVIDERS_FILE !== undefined ? { providersFile: c.PROVIDERS_FILE } : {}),
    storesUrl: c.TRACKING_STORES_BASE_URL.replace(/\/$/, ''),
    // A cluster is named `redis-cluster://host:port,...` inside the CLI (commands/redis-connect.ts).
    redisUrl: c.REDIS_CLUSTER_NODES ? `${CLUSTER_SCHEME}${c.REDIS_CLUSTER_NODES.replace(/\s/g, '')}` : c.REDIS_URL,
    httpTimeoutMs: c.CHAOS_HTTP_TIMEOUT_MS,
    redisTimeoutMs: c.CHAOS_REDIS_TIMEOUT_MS,
  };
}

function pick(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const keys = [
    'SIM_CONTROL_URL',
    'TRACKING_STORES_BASE_URL',
    'REDIS_URL',
    'REDIS_CLUSTER_NODES',
    'PROVIDERS_FILE',
    'CHAOS_HTTP_TIMEOUT_MS',
    'CHAOS_REDIS_TIMEOUT_MS',
  ] as const;
  return Object.fromEntries(keys.filter((k) => env[k] !== undefined && env[k] !== '').map((k) => [k, env[k]]));
}

/** What the scenario takes from its own environment: only what its children need to run. */
export interface ScenarioEnv {
  /** Passed to every child: PATH (node, redis-server), HOME, TMPDIR. Nothing else leaks in. */
  inherited: Record<string, string>;
  redisServer: string;
}

export function loadScenarioEnv(env: Record<string, string | undefined>): ScenarioEnv {
  const inherited: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG']) {
    const value = env[key];
    if (value !== undefined) inherited[key] = value;
  }
  const redisServer = z
    .string()
    .min(1)
    .default('redis-server')
    .parse(env.SCENARIO_REDIS_SERVER || undefined);
  return { inherited, redisServer };
}
