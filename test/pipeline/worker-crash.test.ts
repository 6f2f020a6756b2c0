import { postAllAccepted } from '../harness/batch-post';
import { waitAllTerminal } from '../harness/notification-poll';
import { readLedger, waitFor } from '@notify/platform-kit';
import { fixtureRandom, notificationFor, pickPreferred } from '../fixtures/notifications';
import { useKillablePlatform } from '../harness/killable-platform';

/**
 * A worker process is SIGKILLed while it holds ~100 provider calls in flight. BullMQ hands its
 * jobs to another worker once their locks expire (lockDuration + stalledInterval, set low
 * here); each re-run finds its step open in the record, marks it unknown and reconciles on the
 * same channel with the same idempotency key. Nothing may be lost or delivered twice.
 */
const COUNT = 600;
const { platform: running, workers } = useKillablePlatform();

const ledger = () => readLedger(running().sims.controlUrl);

it('loses nothing and delivers nothing twice when a worker is SIGKILLed mid-run', async () => {
  const victim = workers.start();
  const random = fixtureRandom(7);
  const bodies = Array.from({ length: COUNT }, (_, i) => notificationFor(i, pickPreferred(random), { prefix: 'crash' }));
  const ids = await postAllAccepted(running().api.url, bodies, 400);

  // Kill it once it is visibly mid-run: some delivered, most not.
  await waitFor('the first worker to deliver some', async () => (await ledger()).deliveries >= 150, 60_000, 20);
  await victim.kill();
  const atKill = await ledger();
  expect(atKill.deliveries).toBeLessThan(COUNT);

  workers.start();
  const views = await waitAllTerminal(running().redis.url, ids, 90_000);
  const summary = await ledger();
  const delivered = views.filter((v) => v.status === 'delivered').length;
  const recovered = views.filter((v) => v.attempts.some((a) => a.errorClass === 'worker-lost')).length;
  process.stdout.write(
    `worker crash: ${atKill.deliveries} delivered before SIGKILL, ${delivered}/${COUNT} delivered in the end, ` +
      `${recovered} calls reconciled after the crash, duplicates ${summary.duplicateKeys.length}\n`,
  );

  expect(summary.duplicateKeys).toEqual([]);
  expect(delivered / COUNT).toBeGreaterThanOrEqual(0.99);
  expect(summary.deliveredKeys).toBeGreaterThanOrEqual(delivered);
  expect(recovered).toBeGreaterThan(0);
});
