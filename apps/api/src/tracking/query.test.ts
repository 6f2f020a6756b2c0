import {
  AbandonmentWatch,
  createSplitPolicy,
  Deadline,
  LATENCY_CYCLES,
  ManualTime,
  SEED_PUBLISHED_TABLE,
  slotsHeld,
  TRACKING_REFERENCE,
  type SplitPolicyName,
  type StepContext,
  type TrackingRegime,
  type TrackingStep,
} from '@notify/budget-chain';
import type { TrackingStores } from './http-stores';
import { runTrackingQuery } from './query';

/**
 * Replays the seed's logical-clock model through the real code: Deadline, the split
 * policies, runStep/runSequence and runTrackingQuery. Only the stores are fakes: each plays
 * its 17-long duration cycle on a ManualTime, and when it does not honour cancellation it
 * keeps "working" after its caller gave up, which an AbandonmentWatch adds up.
 */
interface Row {
  answered: number;
  dropped: number;
  failTariff: number;
  failMeasurement: number;
  medianMs: number;
  worstMs: number;
  meanMs: number;
  slotsHeld: number;
  wastedMs: number;
}

function fakeStores(time: ManualTime, regime: TrackingRegime, honourCancel: boolean, wasted: { ms: number }): TrackingStores {
  const cursor: Record<TrackingStep, number> = { 'delivery-ops': 0, tariff: 0, measurement: 0 };
  const work = async <T>(store: TrackingStep, context: StepContext, record: T): Promise<T> => {
    const cycle = LATENCY_CYCLES[regime][store];
    const duration = cycle[cursor[store]++ % cycle.length] as number;
    const watch = new AbandonmentWatch(context.signal, time);
    try {
      await time.sleep(duration, honourCancel ? context.signal : undefined);
    } finally {
      wasted.ms += watch.finish();
    }
    return record;
  };
  return {
    deliveryOps: (c, id) => work('delivery-ops', c, { shipmentId: id, status: 'in_transit' as const, updatedAt: '2026-01-01T00:00:00Z' }),
    tariff: (c) => work('tariff', c, { tariffId: 't1', currency: 'TRY', baseMinor: 1000, perKgMinor: 250 }),
    measurement: (c) => work('measurement', c, { weightGrams: 1200, volumetricGrams: 1500 }),
  };
}

async function replay(regime: TrackingRegime, policyName: SplitPolicyName, honourCancel: boolean, n = 48): Promise<Row> {
  const time = new ManualTime();
  const wasted = { ms: 0 };
  const stores = fakeStores(time, regime, honourCancel, wasted);
  const policy = createSplitPolicy(policyName, { expectedMs: TRACKING_REFERENCE.expectedMs, tailMs: TRACKING_REFERENCE.tailMs });
  const { budgetMs, gatewayShareMs } = TRACKING_REFERENCE;
  const row = { answered: 0, dropped: 0, failTariff: 0, failMeasurement: 0 };
  const endToEnd: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const request = new Deadline({ budgetMs, step: 'tracking', clock: time, timer: time });
    const result = await time.settle(runTrackingQuery(request, `SHP-${i}`, stores, { policy, gatewayShareMs, stopOnFailure: false }));
    // The model charges the gateway its fixed share on top of the branches' time.
    const elapsed = gatewayShareMs + result.budget.elapsedMs;
    endToEnd.push(elapsed);
    for (const step of result.budget.steps) {
      if (step.outcome === 'ok') continue;
      if (step.step === 'tariff') row.failTariff += 1;
      if (step.step === 'measurement') row.failMeasurement += 1;
    }
    if (result.ok && elapsed <= budgetMs) row.answered += 1;
    else row.dropped += 1;
    request.dispose();
  }
  await time.runAll(); // let abandoned work finish so it is all counted
  expect(time.pending()).toBe(0);
  const sorted = [...endToEnd].sort((a, b) => a - b);
  const meanMs = endToEnd.reduce((a, b) => a + b, 0) / n;
  return {
    ...row,
    medianMs: sorted[n >> 1] as number,
    worstMs: sorted[n - 1] as number,
    meanMs: Number(meanMs.toFixed(1)),
    slotsHeld: Number(slotsHeld(meanMs).toFixed(1)),
    wastedMs: wasted.ms,
  };
}

describe('the seed logical model, replayed through Deadline + split policies + runTrackingQuery', () => {
  it.each(SEED_PUBLISHED_TABLE.map((row) => [row.regime, row.policy, row] as const))(
    '%s / %s without a cancel signal matches the published row',
    async (regime, policy, expected) => {
      const { regime: _r, policy: _p, ...numbers } = expected;
      expect(await replay(regime, policy, false)).toEqual(numbers);
    },
  );

  it.each(SEED_PUBLISHED_TABLE.map((row) => [row.regime, row.policy, row] as const))(
    '%s / %s with a cancel signal: same answers for the caller, no abandoned work',
    async (regime, policy, expected) => {
      const { regime: _r, policy: _p, wastedMs: _w, ...numbers } = expected;
      expect(await replay(regime, policy, true)).toEqual({ ...numbers, wastedMs: 0 });
    },
  );

  it("tail-aware (shares from each step's p95: 80 / 100) answers every healthy request and blames only tariff under AY10", async () => {
    const healthy = await replay('healthy', 'tail-aware', false);
    expect(healthy).toMatchObject({ answered: 48, dropped: 0, failTariff: 0, failMeasurement: 0, wastedMs: 0 });
    const slow = await replay('tariff-slow', 'tail-aware', false);
    expect(slow).toMatchObject({ answered: 0, dropped: 48, failTariff: 48, failMeasurement: 0 });
    expect(slow.worstMs).toBeLessThanOrEqual(200);
  });
});
