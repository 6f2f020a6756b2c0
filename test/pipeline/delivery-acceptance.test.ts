import request from 'supertest';
import type { NotificationView } from '@notify/core';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { postBatches } from '../harness/batch-post';
import { waitAllTerminal } from '../harness/notification-poll';
import { laneCounts } from '../harness/queue-counts';
import { expectCompleteHistory, spentCalls } from '../harness/view-assertions';
import { fixtureRandom, notificationFor, pickPreferred } from '../fixtures/notifications';
import { ledgerCalls, readLedger } from '@notify/platform-kit';

/**
 * The delivery acceptance run: 2,000 notifications with BI4's channel shares against providers
 * with BI5 transient and BI6 permanent error rates, the cascade's 30 s scaled down to 300 ms.
 */
const COUNT = 2_000;
let platform: TestPlatform;
// Everything (providers, api, two workers) shares this one process and its 2 cores: a call
// timeout well above the burst's queueing keeps timeouts from standing in for provider faults.
beforeAll(async () => {
  platform = await startTestPlatform({ workerCount: 2, env: { PROVIDER_TIMEOUT_MS: '5000' } });
});
afterAll(async () => {
  await platform?.stop();
});

const ledger = () => readLedger(platform.sims.controlUrl);
const totalCalls = ledgerCalls;

const random = fixtureRandom(20260730);
const bodies = Array.from({ length: COUNT }, (_, i) => notificationFor(i, pickPreferred(random), { prefix: 'acceptance' }));
let ids: string[] = [];
let views: NotificationView[] = [];

// Its own bound: the wait for every record alone may take 120 s, Jest's whole-test timeout; posting and checking come on top.
it('delivers >= 99 % exactly once with <= 1.12 cascade sends per notification, every record terminal and complete', async () => {
  const accepted = await postBatches(platform.api.url, bodies);
  expect(accepted.filter((r) => r.httpStatus === 202)).toHaveLength(COUNT);
  ids = accepted.map((r) => r.id);
  expect(new Set(ids).size).toBe(COUNT);

  views = await waitAllTerminal(platform.redis.url, ids, 120_000);
  const delivered = views.filter((v) => v.status === 'delivered').length;
  const summary = await ledger();
  const callsPerNotification = totalCalls(summary) / COUNT;
  process.stdout.write(
    `acceptance: delivered ${delivered}/${COUNT} (${(delivered / COUNT).toFixed(4)}), ` +
      `calls ${totalCalls(summary)} (${callsPerNotification.toFixed(3)}/notification), duplicates ${summary.duplicateKeys.length}\n`,
  );

  expect(delivered / COUNT).toBeGreaterThanOrEqual(0.99);
  expect(summary.duplicateKeys).toEqual([]);
  // A call that timed out may still deliver after its notification gave up (outcome unknown,
  // budget spent): the ledger may hold more delivered keys than records, never fewer.
  expect(summary.deliveredKeys).toBeGreaterThanOrEqual(delivered);
  // The bound is on cascade sends; reconciliations follow the machine's load (see spentCalls).
  const calls = spentCalls(views);
  const sendsPerNotification = calls.sends / COUNT;
  process.stdout.write(`acceptance: sends ${sendsPerNotification.toFixed(3)}/notification, reconciliations ${calls.reconciliations}\n`);
  expect(sendsPerNotification).toBeLessThanOrEqual(1.12);
  expect(callsPerNotification).toBeLessThanOrEqual(3);

  for (const view of views) {
    expectCompleteHistory(view);
    // The live record also carries each attempt's duration.
    for (const attempt of view.attempts) expect(typeof attempt.durationMs).toBe('number');
  }
}, 300_000);

it('answers re-POSTs of every notification with the same ids and never delivers again', async () => {
  expect(ids).toHaveLength(COUNT);
  const before = await ledger();
  const again = await postBatches(platform.api.url, bodies);
  expect(again.map((r) => r.id)).toEqual(ids);
  expect(again.every((r) => r.httpStatus === 200 && r.duplicate)).toBe(true);

  const changed = await request(platform.api.url)
    .post('/v1/notifications')
    .set('authorization', `Bearer ${TEST_API_KEY}`)
    .send({ ...(bodies[0] as object), priority: 'reminder', content: { title: 'changed', body: 'payload' } });
  expect(changed.status).toBe(422);

  // Nothing was enqueued for terminal notifications: every lane is empty.
  const counts = await Promise.all(laneCounts(platform.redis.url));
  expect(counts.reduce((a, c) => a + c, 0)).toBe(0);
  const after = await ledger();
  expect(after.deliveries).toBe(before.deliveries);
  expect(totalCalls(after)).toBe(totalCalls(before));
});
