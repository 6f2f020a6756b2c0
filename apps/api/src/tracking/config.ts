import { z } from 'zod';
import { DEV_DEFAULTS, devOrigin, parsePrefixedEnv } from '@notify/runtime';
import { SPLIT_POLICY_NAMES, TRACKING_REFERENCE, TRACKING_STEPS, type SplitPolicyName, type TrackingStep } from '@notify/budget-chain';

/** Validated settings of the guarded tracking query path (env names prefixed TRACKING_). */
export interface TrackingConfig {
  /** Base URL per store; the client appends `/stores/<store>/<shipmentId>`. */
  readonly storeUrls: Readonly<Record<TrackingStep, string>>;
  /** End-to-end budget (K01: 200 ms). A client's smaller `x-request-timeout-ms` wins. */
  readonly budgetMs: number;
  /** What the gateway keeps for itself (U3: 20 ms); the branches share the rest. */
  readonly gatewayShareMs: number;
  readonly policy: SplitPolicyName;
  /** Subtracted from a propagated budget on arrival (time on the wire). */
  readonly transitAllowanceMs: number;
  /** Medians per step: the weighted policy's inputs. */
  readonly expectedLatenciesMs: Readonly<Record<TrackingStep, number>>;
  /** High-percentile latencies per step: the tail-aware policy's inputs. */
  readonly tailLatenciesMs: Readonly<Record<TrackingStep, number>>;
  /** Abort in-flight store calls when their budget runs out (false = stop waiting only). */
  readonly cancel: boolean;
  /** Skip the rest of the pricing branch after a failed step (false = the seed's "attempt both"). */
  readonly stopOnFailure: boolean;
  /** Keep-alive sockets per store origin. */
  readonly storeConnections: number;
  /**
   * Kept before the end of the budget for writing the answer: the answer leaves at
   * budget - (this + the loop's measured delay), by a timer if the query has not answered.
   */
  readonly answerReserveMs: number;
  /** Shed new queries (503 + Retry-After) while the event loop's p90 delay is above this; 0 = never. */
  readonly shedLoopDelayMs: number;
  /** Shed new queries while this many are unanswered; 0 = no cap. */
  readonly maxInFlight: number;
  /** The Retry-After of a shed answer, in seconds. */
  readonly shedRetryAfterS: number;
  /** Queries run against the stores before the api reports ready (0 = none), how many at once, and the most time they may take. */
  readonly warmUp: { readonly queries: number; readonly concurrency: number; readonly maxMs: number };
}

const DEFAULT_BASE_URL = devOrigin(DEV_DEFAULTS.trackingStoresPort);

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const millis = (max: number) => z.coerce.number({ error: 'must be a number of milliseconds' }).min(0).max(max);
const flag = z
  .enum(['true', 'false', '1', '0', 'on', 'off'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'on');

function formatTable(table: Readonly<Record<string, number>>): string {
  return Object.entries(table)
    .map(([step, ms]) => `${step}:${ms}`)
    .join(',');
}

/** "delivery-ops:8,tariff:6,measurement:12" -> a table with every step, positive ms. */
const latencyTable = z.string().transform((value, ctx) => {
  const table: Partial<Record<TrackingStep, number>> = {};
  for (const part of value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const [step, ms, extra] = part.split(':').map((p) => p.trim());
    const known = (TRACKING_STEPS as readonly string[]).includes(step ?? '');
    const number = Number(ms);
    if (!known || extra !== undefined || ms === undefined || ms === '' || !Number.isFinite(number) || number <= 0) {
      ctx.addIssue({ code: 'custom', message: `expected "<step>:<ms>" pairs with steps ${TRACKING_STEPS.join(', ')} and positive ms (bad part "${part}")` });
      return z.NEVER;
    }
    table[step as TrackingStep] = number;
  }
  const missing = TRACKING_STEPS.filter((step) => table[step] === undefined);
  if (missing.length > 0) {
    ctx.addIssue({ code: 'custom', message: `missing latency for ${missing.join(', ')}` });
    return z.NEVER;
  }
  return table as Record<TrackingStep, number>;
});

/** Every TRACKING_* variable of the api (exported for the configuration docs test). */
export const trackingEnvSchema = z
  .object({
    TRACKING_STORES_BASE_URL: httpUrl.default(DEFAULT_BASE_URL).describe('Base URL of the three tracking stores (the simulators serve them).'),
    TRACKING_DELIVERY_OPS_URL: httpUrl.optional().describe('Override for the delivery-ops store (unset: the base URL).'),
    TRACKING_TARIFF_URL: httpUrl.optional().describe('Override for the tariff store (unset: the base URL).'),
    TRACKING_MEASUREMENT_URL: httpUrl.optional().describe('Override for the measurement store (unset: the base URL).'),
    TRACKING_BUDGET_MS: millis(60_000)
      .refine((ms) => ms > 0, 'must be positive')
      .default(TRACKING_REFERENCE.budgetMs)
      .describe("End-to-end budget of a tracking query (K01); a client's smaller `x-request-timeout-ms` wins."),
    TRACKING_GATEWAY_SHARE_MS: millis(60_000)
      .default(TRACKING_REFERENCE.gatewayShareMs)
      .describe('What the gateway keeps for itself (U3); the branches share the rest.'),
    TRACKING_SPLIT_POLICY: z
      .enum(SPLIT_POLICY_NAMES, { error: (issue) => `unknown split policy ${JSON.stringify(issue.input)}; expected one of ${SPLIT_POLICY_NAMES.join(', ')}` })
      .default('weighted')
      .describe('How the pricing branch splits its time: `greedy`, `equal`, `weighted`, `tail-aware`.'),
    TRACKING_TRANSIT_ALLOWANCE_MS: millis(1000).default(1).describe('Subtracted from a propagated budget on arrival (time on the wire).'),
    TRACKING_EXPECTED_LATENCIES_MS: latencyTable
      .prefault(formatTable(TRACKING_REFERENCE.expectedMs))
      .describe("Median latency per store: the weighted policy's inputs."),
    TRACKING_TAIL_LATENCIES_MS: latencyTable
      .prefault(formatTable(TRACKING_REFERENCE.tailMs))
      .describe("High-percentile latency per store: the tail-aware policy's inputs."),
    TRACKING_CANCEL: flag.prefault('true').describe('Abort in-flight store calls when their budget runs out (false: only stop waiting).'),
    TRACKING_STOP_ON_FAILURE: flag.prefault('false').describe('Skip the rest of the pricing branch after a failed step.'),
    TRACKING_STORE_CONNECTIONS: z.coerce.number().int().min(1).max(4096).default(64).describe('Keep-alive sockets per store origin.'),
    TRACKING_ANSWER_RESERVE_MS: millis(1000).default(10).describe('Time kept after the last store call for the answer itself.'),
    TRACKING_SHED_LOOP_DELAY_MS: millis(60_000)
      .default(40)
      .describe("Shed new queries (503 with `Retry-After`) while the event loop's delay is above this; 0 = never."),
    TRACKING_MAX_IN_FLIGHT: z.coerce.number().int().min(0).max(1_000_000).default(256).describe('Shed new queries while this many are unanswered; 0 = no cap.'),
    TRACKING_SHED_RETRY_AFTER_S: z.coerce.number().int().min(1).max(3600).default(1).describe('The `Retry-After` of a shed answer, in seconds.'),
    TRACKING_WARMUP_QUERIES: z.coerce
      .number()
      .int()
      .min(0)
      .max(100_000)
      .default(400)
      .describe(
        'Tracking queries the api runs against the stores at start, before `/readyz` says ready (503 `warming-up` meanwhile; it serves all the same). A cold process answered its first ~0.3 s of queries at the K01 rate past the 200 ms budget. 0 = no warm-up.',
      ),
    TRACKING_WARMUP_CONCURRENCY: z.coerce
      .number()
      .int()
      .min(1)
      .max(4096)
      .default(32)
      .describe('How many warm-up queries run at once (also the keep-alive sockets per store it opens).'),
    TRACKING_WARMUP_MAX_MS: millis(600_000)
      .default(5000)
      .describe('The warm-up starts no query after this long; readiness never waits on a store that does not answer.'),
  })
  .refine((env) => env.TRACKING_ANSWER_RESERVE_MS < env.TRACKING_BUDGET_MS, {
    message: 'must be smaller than TRACKING_BUDGET_MS',
    path: ['TRACKING_ANSWER_RESERVE_MS'],
  })
  .refine((env) => env.TRACKING_GATEWAY_SHARE_MS < env.TRACKING_BUDGET_MS, {
    message: 'must be smaller than TRACKING_BUDGET_MS (the branches need some of the budget)',
    path: ['TRACKING_GATEWAY_SHARE_MS'],
  });

/**
 * Parses the tracking path's settings from `env` (passed in; never read from process.env).
 * Throws one Error listing every bad variable, e.g.
 * `TRACKING_SPLIT_POLICY: unknown split policy "fastest"; expected one of greedy, equal, weighted, tail-aware`.
 */
export function loadTrackingConfig(env: Record<string, string | undefined>): TrackingConfig {
  const e = parsePrefixedEnv('tracking', 'TRACKING_', trackingEnvSchema, env);
  const base = e.TRACKING_STORES_BASE_URL;
  return {
    storeUrls: {
      'delivery-ops': e.TRACKING_DELIVERY_OPS_URL ?? base,
      tariff: e.TRACKING_TARIFF_URL ?? base,
      measurement: e.TRACKING_MEASUREMENT_URL ?? base,
    },
    budgetMs: e.TRACKING_BUDGET_MS,
    gatewayShareMs: e.TRACKING_GATEWAY_SHARE_MS,
    policy: e.TRACKING_SPLIT_POLICY,
    transitAllowanceMs: e.TRACKING_TRANSIT_ALLOWANCE_MS,
    expectedLatenciesMs: e.TRACKING_EXPECTED_LATENCIES_MS,
    tailLatenciesMs: e.TRACKING_TAIL_LATENCIES_MS,
    cancel: e.TRACKING_CANCEL,
    stopOnFailure: e.TRACKING_STOP_ON_FAILURE,
    storeConnections: e.TRACKING_STORE_CONNECTIONS,
    answerReserveMs: e.TRACKING_ANSWER_RESERVE_MS,
    shedLoopDelayMs: e.TRACKING_SHED_LOOP_DELAY_MS,
    maxInFlight: e.TRACKING_MAX_IN_FLIGHT,
    shedRetryAfterS: e.TRACKING_SHED_RETRY_AFTER_S,
    warmUp: { queries: e.TRACKING_WARMUP_QUERIES, concurrency: e.TRACKING_WARMUP_CONCURRENCY, maxMs: e.TRACKING_WARMUP_MAX_MS },
  };
}
