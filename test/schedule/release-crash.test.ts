import { dueIndexKey } from '@notify/core';
import { readLedger, waitFor } from '@notify/platform-kit';
import { waitAllTerminal } from '../harness/notification-poll';
import { postDueTogether, useReleasePlatform } from './release-fixture';

/**
 * A worker process is SIGKILLed while it releases a block of notifications due at the same
 * instant (small release batches, so the release spans many script calls and enqueues). What
 * it released but had not enqueued yet is accepted and in the pending-intake set: another
 * worker's intake sweeper adds those first steps. Nothing may be lost, sent twice or sent early.
 */
const COUNT = 1_000;
const { platform, redis, workers } = useReleasePlatform();

it('loses, duplicates and sends early nothing when a worker is SIGKILLed during a release', async () => {
  // Far enough ahead that every one is still scheduled when its batch is accepted, on a busy machine too
  // (posting both batches takes ~1.5 s on a loaded machine); the expect below fails loudly if not.
  const { ids, due } = await postDueTogether(platform().api.url, 'release-crash', COUNT, 5_000, 500);
  expect(await redis().zcard(dueIndexKey())).toBe(COUNT);

  const victim = workers.start();
  await waitFor('the release to begin', async () => (await redis().zcard(dueIndexKey())) < COUNT, 30_000, 2);
  await victim.kill();
  const leftInIndex = await redis().zcard(dueIndexKey());
  const deliveredAtKill = (await readLedger(platform().sims.controlUrl)).deliveries;

  workers.start();
  const views = await waitAllTerminal(platform().redis.url, ids, 90_000);
  const ledger = await readLedger(platform().sims.controlUrl);
  const delivered = views.filter((v) => v.status === 'delivered').length;
  process.stdout.write(
    `release crash: SIGKILL with ${COUNT - leftInIndex}/${COUNT} taken from the due index and ${deliveredAtKill} delivered; ` +
      `${delivered}/${COUNT} delivered in the end, duplicates ${ledger.duplicateKeys.length}\n`,
  );
  // Every one ended (waitAllTerminal); the simulators' own permanent failures are the only misses.
  expect(delivered / COUNT).toBeGreaterThanOrEqual(0.99);
  expect(ledger.deliveredKeys).toBe(delivered);
  expect(ledger.duplicateKeys).toEqual([]);
  for (const v of views) {
    expect(v.releasedAt).toBeGreaterThanOrEqual(due);
    for (const attempt of v.attempts) expect(attempt.startedAt).toBeGreaterThanOrEqual(due);
  }
});
