import { providerIdempotencyKey } from '@notify/core';
import { readLedger, waitFor } from '@notify/platform-kit';
import { postAllAccepted } from '../harness/batch-post';
import { waitAllTerminal } from '../harness/notification-poll';
import { TEST_API_KEY } from '../harness/platform';
import { fixtureRandom, notificationFor, pickPreferred } from '../fixtures/notifications';
import { useKillablePlatform } from '../harness/killable-platform';

/**
 * Cancels at random times under load, while a worker process is SIGKILLed mid-run and another
 * takes its jobs over (re-runs find open attempts, mark them unknown and reconcile). At the
 * simulated providers: nothing a cancel answered 200 for is delivered, nothing is delivered
 * twice, and every notification ends.
 */
const COUNT = 600;
const CANCEL_SHARE = 0.35;
/** Cancels are spread over this long from the first deliveries on: before, around and after the kill. */
const CANCEL_SPREAD_MS = 2_000;
const { platform: running, workers } = useKillablePlatform();

const cancel = async (id: string): Promise<number> =>
  (await fetch(`${running().api.url}/v1/notifications/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${TEST_API_KEY}` } })).status;
const deliveriesOf = async (id: string): Promise<number> =>
  ((await (await fetch(`${running().sims.controlUrl}/ledger/keys/${providerIdempotencyKey(id)}`)).json()) as { deliveries: unknown[] }).deliveries.length;

it('delivers nothing canceled and nothing twice, with cancels at random times and a worker SIGKILLed', async () => {
  const victim = workers.start();
  const random = fixtureRandom(26);
  const bodies = Array.from({ length: COUNT }, (_, i) => notificationFor(i, pickPreferred(random), { prefix: 'cancel-fault' }));
  const ids = await postAllAccepted(running().api.url, bodies, 200);

  const answers = new Map<string, number>();
  await waitFor('the first worker to start delivering', async () => (await readLedger(running().sims.controlUrl)).deliveries >= 20, 30_000, 20);
  const cancels = ids
    .filter(() => random() < CANCEL_SHARE)
    .map(async (id) => {
      await new Promise((resolve) => setTimeout(resolve, random() * CANCEL_SPREAD_MS));
      answers.set(id, await cancel(id));
    });

  await waitFor('the first worker to deliver some more', async () => (await readLedger(running().sims.controlUrl)).deliveries >= 150, 30_000, 20);
  await victim.kill();
  workers.start();
  await Promise.all(cancels);
  const views = await waitAllTerminal(running().redis.url, ids, 45_000);

  const canceled = [...answers].filter(([, status]) => status === 200).map(([id]) => id);
  const refused = [...answers].filter(([, status]) => status === 409).map(([id]) => id);
  const byId = new Map(views.map((v) => [v.id, v]));
  const deliveredCanceled = (await Promise.all(canceled.map(async (id) => ((await deliveriesOf(id)) > 0 ? [id] : [])))).flat();
  const summary = await readLedger(running().sims.controlUrl);
  const recovered = views.filter((v) => v.attempts.some((a) => a.errorClass === 'worker-lost')).length;
  process.stdout.write(
    `cancel under fault: ${answers.size} cancels (${canceled.length} canceled, ${refused.length} refused), ` +
      `${recovered} reconciled after the SIGKILL, canceled but delivered ${deliveredCanceled.length}, duplicates ${summary.duplicateKeys.length}\n`,
  );

  expect([...answers.values()].every((status) => status === 200 || status === 409)).toBe(true);
  // Both sides of the race happened: cancels that won and cancels that found a call or an end.
  expect(canceled.length).toBeGreaterThan(0);
  expect(refused.length).toBeGreaterThan(0);
  expect(deliveredCanceled).toEqual([]);
  expect(summary.duplicateKeys).toEqual([]);
  for (const id of canceled) expect(byId.get(id)?.status).toBe('canceled');
  for (const id of refused) expect(byId.get(id)?.status).not.toBe('canceled');
  expect(views.filter((v) => v.status === 'canceled')).toHaveLength(canceled.length);
});
