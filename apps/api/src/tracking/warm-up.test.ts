import pino from 'pino';
import { Registry } from 'prom-client';
import type { Deadline, StepContext } from '@notify/budget-chain';
import { loadTrackingConfig } from './config';
import type { TrackingStores } from './http-stores';
import { createTrackingRouter } from './router';
import { warmUpTracking } from './warm-up';

describe('tracking warm-up', () => {
  it('runs the asked number of queries, never more than `concurrency` at once, each with its own deadline', async () => {
    let running = 0;
    let most = 0;
    const ids: string[] = [];
    const budgets = new Set<number>();
    const report = await warmUpTracking(
      async (deadline: Deadline, id: string) => {
        running += 1;
        most = Math.max(most, running);
        ids.push(id);
        budgets.add(deadline.budgetMs);
        await new Promise((resolve) => setImmediate(resolve));
        running -= 1;
        return id !== 'WARMUP-3';
      },
      { queries: 40, concurrency: 7, maxMs: 60_000, budgetMs: 200 },
    );
    expect(report).toMatchObject({ queries: 40, answered: 39 });
    expect(most).toBe(7);
    expect(new Set(ids).size).toBe(40);
    expect([...budgets]).toEqual([200]);
  });

  it('goes on past failed queries and stops starting new ones on shutdown', async () => {
    const shutdown = new AbortController();
    let calls = 0;
    const report = await warmUpTracking(
      async () => {
        calls += 1;
        if (calls === 5) shutdown.abort();
        throw new Error('store down');
      },
      { queries: 1000, concurrency: 1, maxMs: 60_000, budgetMs: 200, signal: shutdown.signal },
    );
    expect(calls).toBe(5);
    expect(report).toMatchObject({ queries: 5, answered: 0 });
  });

  it('with 0 queries does nothing', async () => {
    const report = await warmUpTracking(
      () => {
        throw new Error('must not run');
      },
      { queries: 0, concurrency: 8, maxMs: 1000, budgetMs: 200 },
    );
    expect(report).toMatchObject({ queries: 0, answered: 0 });
  });

  it("runs the router's real query against the stores and leaves the request metrics alone", async () => {
    const reads: string[] = [];
    const read =
      <T>(store: string, value: T) =>
      async (_context: StepContext, id: string): Promise<T> => {
        reads.push(`${store}:${id}`);
        return value;
      };
    const stores: TrackingStores = {
      deliveryOps: read('delivery-ops', { shipmentId: 'x', status: 'in_transit' as const, updatedAt: '2026-01-01T00:00:00.000Z' }),
      tariff: read('tariff', { tariffId: 't', currency: 'EUR', baseMinor: 200, perKgMinor: 100 }),
      measurement: read('measurement', { weightGrams: 1500, volumetricGrams: 1200 }),
    };
    const registry = new Registry();
    // A budget no busy test machine exhausts: this is about which reads run, not how fast.
    const config = loadTrackingConfig({
      TRACKING_WARMUP_QUERIES: '12',
      TRACKING_WARMUP_CONCURRENCY: '4',
      TRACKING_SHED_LOOP_DELAY_MS: '0',
      TRACKING_BUDGET_MS: '30000',
    });
    const router = createTrackingRouter({ config, registry, logger: pino({ level: 'silent' }), stores });
    try {
      const report = await router.warmUp();
      expect(report).toMatchObject({ queries: 12, answered: 12 });
      expect(reads.filter((r) => r.startsWith('tariff:'))).toHaveLength(12);
      expect(reads).toContain('measurement:WARMUP-11');
      const requests = (await registry.getSingleMetricAsString('notify_tracking_requests_total').catch(() => ''))
        .split('\n')
        .filter((l) => !l.startsWith('#') && l.trim() !== '');
      expect(requests).toEqual([]);
    } finally {
      await router.close();
    }
  });
});
