import { dueIndexKey } from '@notify/core';
import { readLedger, waitFor } from '@notify/platform-kit';
import { ledgerDeliveries } from '../harness/ledger-keys';
import { readViews, waitAllTerminal } from '../harness/notification-poll';
import { postDueTogether, useReleasePlatform } from './release-fixture';

/**
 * Redis itself SIGKILLed (AOF everysec, the harness's default) while two workers release a block
 * of notifications due at the same instant, then started again on the same port and directory.
 * The workers (real processes) wait for it and go on. What the restarted Redis holds is what
 * its AOF had: a release is one script, so each batch is applied whole or not at all; anything
 * undone is released or sent again, and the providers' idempotency key makes a second call for
 * an already delivered one a replay. The only loss allowed is a notification whose record the
 * restarted Redis does not hold at all (written in the last second before the kill); every one
 * it holds must end delivered. At the providers: nothing twice, nothing before its sendAt.
 */
const COUNT = 400;
// No permanent failures: every notification Redis holds can end delivered.
const { platform: running, redis: connection, workers } = useReleasePlatform({ SIM_PERMANENT_RATES: '0,0,0' });

it('delivers every notification Redis still holds once and none early when Redis is SIGKILLed during a release', async () => {
  const platform = running();
  const redis = connection();
  const { ids, due } = await postDueTogether(platform.api.url, 'release-redis-kill', COUNT, 6_000, 200);
  expect(await redis.zcard(dueIndexKey())).toBe(COUNT);

  const started = [workers.start(), workers.start()];
  // Killed a quarter into the release: batches released, some being sent, the rest still waiting.
  await waitFor('a quarter released', async () => (await redis.zcard(dueIndexKey())) <= (COUNT * 3) / 4, 30_000, 2);
  const leftBeforeKill = await redis.zcard(dueIndexKey());
  await platform.redis.kill();
  const deliveredAtKill = (await readLedger(platform.sims.controlUrl)).deliveries;
  await platform.redis.restart();
  await waitFor('the test connection back', async () => redis.status === 'ready', 30_000, 20);

  // What the restarted Redis holds (the workers go on meanwhile): a record gone is one lost with the AOF's last second.
  const inIndex = await redis.zcard(dueIndexKey());
  const afterRestart = await readViews(platform.redis.url, ids);
  const held = ids.filter((id, i) => afterRestart[i]?.id === id);
  const isHeld = new Set(held);
  const lost = ids.filter((id) => !isHeld.has(id));
  const byStatus = new Map<string, number>();
  for (const v of afterRestart) byStatus.set(v.status ?? 'missing', (byStatus.get(v.status ?? 'missing') ?? 0) + 1);

  const views = await waitAllTerminal(platform.redis.url, held, 90_000);
  const deliveries = await ledgerDeliveries(platform.sims.controlUrl, ids);
  const ledger = await readLedger(platform.sims.controlUrl);
  process.stdout.write(
    `release under a Redis SIGKILL: ${COUNT - leftBeforeKill}/${COUNT} taken from the due index and ${deliveredAtKill} delivered at the kill; ` +
      `after the restart ${inIndex} in the due index, records ${[...byStatus].map(([s, n]) => `${s} ${n}`).join(', ')} (${lost.length} missing); ` +
      `${views.filter((v) => v.status === 'delivered').length}/${held.length} held ones delivered, duplicates ${ledger.duplicateKeys.length}, ` +
      `replayed calls ${ledger.outcomes.push?.replayed ?? 0}\n`,
  );

  // The workers waited for Redis and went on, under the same processes.
  expect(started.map((w) => w.running)).toEqual([true, true]);
  // Every one Redis holds ended delivered, and at the providers exactly once.
  expect(views.filter((v) => v.status !== 'delivered').map((v) => `${v.id} ${v.status}`)).toEqual([]);
  expect(ids.filter((id, i) => isHeld.has(id) && deliveries[i]?.length !== 1)).toEqual([]);
  // None twice, lost or not, and none before its sendAt (the providers' clock is this machine's, as Redis's is).
  expect(ids.filter((_, i) => (deliveries[i]?.length ?? 0) > 1)).toEqual([]);
  expect(ledger.duplicateKeys).toEqual([]);
  expect(deliveries.flat().filter((d) => d.at < due)).toEqual([]);
  for (const v of views) {
    expect(v.releasedAt).toBeGreaterThanOrEqual(due);
    for (const attempt of v.attempts) expect(attempt.startedAt).toBeGreaterThanOrEqual(due);
  }
});
