import request from 'supertest';
import { notificationId } from '@notify/core';
import { waitAllTerminal } from '../harness/notification-poll';
import { OTHER_TENANT_KEY, startTestPlatform, startTestWorker, TEST_API_KEY } from '../harness/platform';
import { notificationFor } from '../fixtures/notifications';

/**
 * Fair share inside a lane through the real api, worker and Redis: with no worker running,
 * tenant-a floods the push reminder lane, then tenant-b adds a few; one worker with one slot
 * on that lane then drains it. The providers never fail and answer at once, so every
 * notification is one step on that lane and the drain stays short on a busy machine. What is
 * asserted is the order the lane served them (when each record's first attempt started),
 * never how long they took.
 */
const FLOOD = 250;
const FEW = 5;
/** One slot on the lane: first steps run one after another, in the order the lane serves them. */
const ONE_SLOT = JSON.stringify({ push: { reminder: { concurrency: 1 } } });
/**
 * A lane's turn is one batch job: with fair share the few wait for tenant-a's first job only.
 * Jobs of 16 steps keep that turn the same part of the flood (6.4 %) as the default 64 of 1,000.
 */
const TURN_STEPS = 16;

const reminders = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => notificationFor(i, 'push', { prefix, priority: 'reminder' }));

async function postBatches(url: string, key: string, bodies: ReturnType<typeof reminders>): Promise<void> {
  for (let i = 0; i < bodies.length; i += 500) {
    const res = await request(url)
      .post('/v1/notifications/batch')
      .set('authorization', `Bearer ${key}`)
      .send({ notifications: bodies.slice(i, i + 500) });
    expect(res.status).toBe(200);
    expect((res.body.results as { httpStatus: number }[]).every((r) => r.httpStatus === 202)).toBe(true);
  }
}

/** For each of tenant-b's notifications: how many of tenant-a's flood the lane served before it. */
async function floodServedBeforeEach(laneFairShare: boolean): Promise<number[]> {
  const platform = await startTestPlatform({
    workerCount: 0,
    simEnv: { SIM_LATENCY_MS: '0', SIM_TRANSIENT_RATES: '0,0,0', SIM_PERMANENT_RATES: '0,0,0' },
    env: { LANES: ONE_SLOT, LANE_FAIR_SHARE: String(laneFairShare), INTAKE_BATCH_MAX: String(TURN_STEPS) },
  });
  try {
    const flood = reminders('flood', FLOOD);
    const few = reminders('few', FEW);
    await postBatches(platform.api.url, TEST_API_KEY, flood);
    await postBatches(platform.api.url, OTHER_TENANT_KEY, few);
    const worker = await startTestWorker(platform);
    try {
      const floodIds = flood.map((b) => notificationId('tenant-a', b.eventId, b.recipient.id));
      const fewIds = few.map((b) => notificationId('tenant-b', b.eventId, b.recipient.id));
      const views = await waitAllTerminal(platform.redis.url, [...floodIds, ...fewIds], 110_000);
      // The lane's order: when each first step (push, the preferred channel) started.
      const servedAt = views.map((v) => v.attempts.find((x) => x.step === 1 && x.channel === 'push')?.startedAt ?? Number.NaN);
      expect(servedAt.filter(Number.isNaN)).toHaveLength(0);
      const floodAt = servedAt.slice(0, FLOOD);
      return servedAt.slice(FLOOD).map((at) => floodAt.filter((f) => f < at).length);
    } finally {
      await worker.close();
    }
  } finally {
    await platform.stop();
  }
}

it("fair share on: a tenant's few reminders are served before most of another tenant's earlier flood", async () => {
  const before = await floodServedBeforeEach(true);
  expect(before).toHaveLength(FEW);
  for (const n of before) expect(n).toBeLessThan(FLOOD * 0.2);
});

it('fair share off (LANE_FAIR_SHARE=false): the few wait behind the whole flood', async () => {
  const before = await floodServedBeforeEach(false);
  for (const n of before) expect(n).toBeGreaterThan(FLOOD * 0.95);
});
