/**
 * The reference scenario the tracking chain is sized for (seed 000, "timeout budgets"):
 * thresholds, per-step latency cycles and the seed's published logical-model table. The
 * simulator serves these cycles, the unit tests replay them on a logical clock, and the
 * bench prints the published table beside what it measures, all from this one place.
 */
export const TRACKING_STEPS = ['delivery-ops', 'tariff', 'measurement'] as const;
export type TrackingStep = (typeof TRACKING_STEPS)[number];

export const TRACKING_REFERENCE = {
  /** K01: end-to-end read threshold. */
  budgetMs: 200,
  /** U3: what the gateway keeps for itself; the branches get the rest (180 ms). */
  gatewayShareMs: 20,
  /** K01 peak at the read path (reads/s): the lambda of L = lambda x W. */
  peakReadsPerSecond: 416.67,
  /** K01 peak at the edge (requests/s). */
  peakEdgeRequestsPerSecond: 513.89,
  /** Size of a tracking response (bytes). */
  responseBytes: 480,
  /** Sub-calls per external request: 2 branches + 1 delivery-ops read + 2 pricing reads. */
  subCallsPerRequest: 5,
  /** Ordinary (median) latencies: the weighted policy's inputs. */
  expectedMs: { 'delivery-ops': 8, tariff: 6, measurement: 12 },
  /** Healthy-day tails (the long tail of each 17-long cycle; its p95): the tail-aware policy's inputs. */
  tailMs: { 'delivery-ops': 40, tariff: 80, measurement: 100 },
  /** AY10: how long one tariff slowdown lasts (minutes) and the monthly error allowance (minutes). */
  slowdownMinutes: 12,
  monthlyAllowanceMinutes: 28.2,
} as const;

export type TrackingRegime = 'healthy' | 'tariff-slow';

/** A body of 8 durations played twice, then one long tail: a 17-long cycle. */
function cycle(body: readonly number[], tail: number): readonly number[] {
  return [...body, ...body, tail];
}

const DELIVERY_OPS = cycle([8, 9, 8, 10, 8, 9, 8, 10], 40);
const MEASUREMENT = cycle([12, 13, 12, 14, 12, 13, 12, 14], 100);

/** Per-store duration cycles (ms) for each regime; AY10 slows the tariff store only. */
export const LATENCY_CYCLES: Readonly<Record<TrackingRegime, Readonly<Record<TrackingStep, readonly number[]>>>> = {
  healthy: {
    'delivery-ops': DELIVERY_OPS,
    tariff: cycle([6, 7, 6, 8, 6, 7, 6, 8], 80),
    measurement: MEASUREMENT,
  },
  'tariff-slow': {
    'delivery-ops': DELIVERY_OPS,
    tariff: cycle([150, 400, 220, 400, 180, 300, 260, 400], 400),
    measurement: MEASUREMENT,
  },
};

export interface SeedTableRow {
  readonly regime: TrackingRegime;
  readonly policy: 'greedy' | 'equal' | 'weighted';
  readonly answered: number;
  readonly dropped: number;
  readonly failTariff: number;
  readonly failMeasurement: number;
  readonly medianMs: number;
  readonly worstMs: number;
  readonly meanMs: number;
  /** L = lambda x W at the peak read rate. */
  readonly slotsHeld: number;
  /** Work the stores did after the caller gave up, without a cancel signal (ms). */
  readonly wastedMs: number;
}

function row(regime: TrackingRegime, policy: SeedTableRow['policy'], v: readonly number[]): SeedTableRow {
  const [answered, dropped, failTariff, failMeasurement, medianMs, worstMs, meanMs, slotsHeld, wastedMs] = v as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return { regime, policy, answered, dropped, failTariff, failMeasurement, medianMs, worstMs, meanMs, slotsHeld, wastedMs };
}

/** The seed's published table: 48 requests per row, logical clock, no cancel signal. */
export const SEED_PUBLISHED_TABLE: readonly SeedTableRow[] = [
  row('healthy', 'greedy', [48, 0, 0, 0, 40, 200, 46.2, 19.2, 0]),
  row('healthy', 'equal', [46, 2, 0, 2, 40, 190, 45.8, 19.1, 20]),
  row('healthy', 'weighted', [46, 2, 2, 0, 40, 180, 45.3, 18.9, 40]),
  row('tariff-slow', 'greedy', [6, 42, 36, 42, 200, 200, 197.8, 82.4, 5540]),
  row('tariff-slow', 'equal', [0, 48, 48, 2, 123, 200, 126.0, 52.5, 9700]),
  row('tariff-slow', 'weighted', [0, 48, 48, 0, 93, 180, 96.4, 40.2, 11120]),
];

/** Little's law: slots (concurrent callers) held at `ratePerSecond` for a mean time of `meanMs`. */
export function slotsHeld(meanMs: number, ratePerSecond: number = TRACKING_REFERENCE.peakReadsPerSecond): number {
  return (ratePerSecond * meanMs) / 1000;
}
