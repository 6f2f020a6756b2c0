/**
 * The tracking-query chain of the budget document, as fixed model parameters. Durations
 * come from a repeating cycle (a logical clock): nothing is timed, so every run is exact.
 */
export const TRACKING = Object.freeze({
  /** K01: end-to-end threshold, ms. */
  thresholdMs: 200,
  /** K01: peak reads/s at the read path (lambda for L = lambda x W). */
  peakReadsPerSecond: 416.67,
  /** K01: peak requests/s at the edge. */
  peakEdgeRequestsPerSecond: 513.89,
  /** K01: bytes of one tracking response. */
  responseBytes: 480,
  /** Monthly error allowance, minutes. */
  monthlyAllowanceMinutes: 28.2,
});

/** U3: the gateway's own share; the rest is what a branch may spend. */
export const GATEWAY_SHARE_MS = 20;
export const BRANCH_BUDGET_MS = TRACKING.thresholdMs - GATEWAY_SHARE_MS;

/** Sub-calls per external request (2 branches + 1 + 2 record reads) and the deadline field. */
export const SUBCALLS_PER_REQUEST = 5;
export const DEADLINE_FIELD_BYTES = 8;

/** delivery-ops runs in parallel with pricing; pricing is tariff then measurement. */
export const CHAIN_STEPS = ['deliveryOps', 'tariff', 'measurement'] as const;
export type ChainStep = (typeof CHAIN_STEPS)[number];
export type PerStep<T> = { readonly [S in ChainStep]: T };

/** The ordinary latencies the seed's weighted split uses (model parameters, ms). */
export const ORDINARY_MS: PerStep<number> = Object.freeze({ deliveryOps: 8, tariff: 6, measurement: 12 });

/**
 * A duration cycle: the body twice, then one long tail. Note the cycle is 17 long (the seed's
 * comment says "one in 16"); with 48 requests each step meets its tail at requests 16 and 33.
 */
function cycle(body: readonly number[], tail: number): readonly number[] {
  return Object.freeze([...body, ...body, tail]);
}

export const REGIMES = ['healthy', 'tariff-slow'] as const;
export type Regime = (typeof REGIMES)[number];

const DELIVERY_OPS = cycle([8, 9, 8, 10, 8, 9, 8, 10], 40);
const MEASUREMENT = cycle([12, 13, 12, 14, 12, 13, 12, 14], 100);

/** Per regime, per step, the duration cycle in ms. AY10 slows only the tariff store. */
export const DURATION_PROFILES: { readonly [R in Regime]: PerStep<readonly number[]> } = Object.freeze({
  healthy: Object.freeze({
    deliveryOps: DELIVERY_OPS,
    tariff: cycle([6, 7, 6, 8, 6, 7, 6, 8], 80),
    measurement: MEASUREMENT,
  }),
  'tariff-slow': Object.freeze({
    deliveryOps: DELIVERY_OPS,
    tariff: cycle([150, 400, 220, 400, 180, 300, 260, 400], 400),
    measurement: MEASUREMENT,
  }),
});

/** L = lambda x W: slots held at the peak read rate by calls lasting `ms` on average. */
export function slotsHeld(ms: number): number {
  return (TRACKING.peakReadsPerSecond * ms) / 1000;
}
