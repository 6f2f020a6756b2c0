import { z } from 'zod';
import { DEV_DEFAULTS, parsePrefixedEnv } from '@notify/runtime';

export const TARIFF_MODES = ['healthy', 'slow', 'error'] as const;
/** healthy: the seed's healthy cycle; slow: AY10 (tens of times the 6 ms median); error: 500s. */
export type TariffMode = (typeof TARIFF_MODES)[number];

/** Settings of the simulated tracking stores (env names prefixed TRACKING_STORES_). */
export interface TrackingStoresConfig {
  readonly host: string;
  readonly port: number;
  /** Stop simulated work when the caller disconnects or the propagated deadline passes. */
  readonly honourCancellation: boolean;
  readonly tariffMode: TariffMode;
  /** Subtracted from a propagated budget on arrival. */
  readonly transitAllowanceMs: number;
  /** Multiplies every simulated duration (1 = the seed's milliseconds). */
  readonly timeScale: number;
  /** Cap on a propagated budget (a caller cannot ask a store to work for an hour). */
  readonly maxBudgetMs: number;
}

const flag = z
  .enum(['true', 'false', '1', '0', 'on', 'off'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'on');

/** Every TRACKING_STORES_* variable of the simulators (exported for the configuration docs test). */
export const trackingStoresEnvSchema = z.object({
  TRACKING_STORES_HOST: z.string().min(1).default('127.0.0.1').describe('Interface of the three simulated tracking stores.'),
  TRACKING_STORES_PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int()
    .min(0)
    .max(65_535)
    .default(DEV_DEFAULTS.trackingStoresPort)
    .describe('Their port.'),
  TRACKING_STORES_HONOUR_CANCELLATION: flag.prefault('true').describe('Stop simulated work when the caller disconnects or its propagated deadline passes.'),
  TRACKING_STORES_TARIFF_MODE: z
    .enum(TARIFF_MODES, { error: (issue) => `unknown tariff mode ${JSON.stringify(issue.input)}; expected one of ${TARIFF_MODES.join(', ')}` })
    .default('healthy')
    .describe('`healthy`, `slow` (AY10) or `error` at start.'),
  TRACKING_STORES_TRANSIT_ALLOWANCE_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .min(0)
    .max(1000)
    .default(1)
    .describe('Subtracted from a propagated budget on arrival.'),
  TRACKING_STORES_TIME_SCALE: z.coerce.number({ error: 'must be a number' }).min(0.01).max(100).default(1).describe('Multiplies every simulated duration.'),
  TRACKING_STORES_MAX_BUDGET_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .positive()
    .max(3_600_000)
    .default(60_000)
    .describe('Cap on a propagated budget.'),
});

/** Parses the stores' settings from `env` (passed in, never process.env); throws listing every bad variable. */
export function loadTrackingStoresConfig(env: Record<string, string | undefined>): TrackingStoresConfig {
  const e = parsePrefixedEnv('tracking stores', 'TRACKING_STORES_', trackingStoresEnvSchema, env);
  return {
    host: e.TRACKING_STORES_HOST,
    port: e.TRACKING_STORES_PORT,
    honourCancellation: e.TRACKING_STORES_HONOUR_CANCELLATION,
    tariffMode: e.TRACKING_STORES_TARIFF_MODE,
    transitAllowanceMs: e.TRACKING_STORES_TRANSIT_ALLOWANCE_MS,
    timeScale: e.TRACKING_STORES_TIME_SCALE,
    maxBudgetMs: e.TRACKING_STORES_MAX_BUDGET_MS,
  };
}
