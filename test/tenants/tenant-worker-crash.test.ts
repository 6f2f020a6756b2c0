import { Redis } from 'ioredis';
import { channelQueueName, isTerminal, notificationId, PRIORITIES, queuePrefix } from '@notify/core';
import { laneTagsKey } from '@notify/pipeline';
import { readLedger, waitFor } from '@notify/platform-kit';
import { postAllAccepted } from '../harness/batch-post';
import { useKillablePlatform } from '../harness/killable-platform';
import { ledgerDeliveries } from '../harness/ledger-keys';
import { waitAllTerminal } from '../harness/notification-poll';
import { OTHER_TENANT_KEY, TEST_API_KEY } from '../harness/platform';
import { tenantsFileEnv } from '../harness/tenants-file';
import { expectCompleteHistory } from '../harness/view-assertions';
import { fixtureRandom, notificationFor, pickPreferred } from '../fixtures/notifications';

/**
 * test/pipeline/worker-crash.test.ts with two tenants of different weights sharing the lanes
 * (fair share on, the default): a worker process is SIGKILLed mid-traffic and another takes
 * over. Both tenants send the same events to the same recipients, so each (event, recipient)
 * is two notifications, one per tenant (notificationId(tenant, event, recipient)): a tenant's
 * delivery must neither stand in for the other's nor repeat.
 */
const PER_TENANT = 300;
const TENANTS = [
  { tenant: 'tenant-a', key: TEST_API_KEY, weight: 3 },
  { tenant: 'tenant-b', key: OTHER_TENANT_KEY, weight: 1 },
] as const;
const { platform: running, workers } = useKillablePlatform({
  env: tenantsFileEnv(Object.fromEntries(TENANTS.map(({ tenant, weight }) => [tenant, { weight }]))),
});

const ledger = () => readLedger(running().sims.controlUrl);

/** The push lanes' fair-share tags (lane-tags.ts): which tenants' jobs were tagged there, with which weight. */
async function pushLaneTags(): Promise<Record<string, string>[]> {
  const redis = new Redis(running().redis.url, { maxRetriesPerRequest: 1 });
  try {
    return await Promise.all(PRIORITIES.map((priority) => redis.hgetall(laneTagsKey(`${queuePrefix(0)}:${channelQueueName('push', priority)}`))));
  } finally {
    redis.disconnect();
  }
}

it('two tenants sharing the lanes: nothing lost, nothing delivered twice, per tenant, when a worker is SIGKILLed mid-run', async () => {
  const victim = workers.start();
  const random = fixtureRandom(11);
  const bodies = Array.from({ length: PER_TENANT }, (_, i) => notificationFor(i, pickPreferred(random), { prefix: 'tenant-crash' }));
  // Both tenants at once, in batches of 100: their jobs interleave in every lane.
  const idsOf = await Promise.all(TENANTS.map(({ key }) => postAllAccepted(running().api.url, bodies, 100, key)));
  TENANTS.forEach(({ tenant }, t) => expect(idsOf[t]).toEqual(bodies.map((b) => notificationId(tenant, b.eventId, b.recipient.id))));
  // Fair share is on and both tenants' jobs share each push lane, each tagged with its weight.
  for (const tags of await pushLaneTags()) expect(tags).toMatchObject({ 'w:tenant-a': '3', 'w:tenant-b': '1' });

  await waitFor('the first worker to deliver some', async () => (await ledger()).deliveries >= 150, 60_000, 20);
  await victim.kill();
  const atKill = await ledger();
  expect(atKill.deliveries).toBeLessThan(TENANTS.length * PER_TENANT);

  workers.start();
  const views = await Promise.all(idsOf.map((ids) => waitAllTerminal(running().redis.url, ids, 90_000)));
  const summary = await ledger();
  const deliveriesOf = await Promise.all(idsOf.map((ids) => ledgerDeliveries(running().sims.controlUrl, ids)));

  const perTenant = TENANTS.map(({ tenant }, t) => {
    const mine = views[t] ?? [];
    const received = deliveriesOf[t] ?? [];
    return {
      tenant,
      delivered: mine.filter((v) => v.status === 'delivered').length,
      ended: mine.filter((v) => isTerminal(v.status)).length,
      receivedKeys: received.filter((d) => d.length > 0).length,
      receivedTwice: received.filter((d) => d.length > 1).length,
      recovered: mine.filter((v) => v.attempts.some((a) => a.errorClass === 'worker-lost')).length,
    };
  });
  process.stdout.write(
    `tenant worker crash: ${atKill.deliveries} delivered before SIGKILL; ` +
      `${perTenant.map((p) => `${p.tenant} ${p.delivered}/${PER_TENANT} delivered, ${p.recovered} reconciled`).join('; ')}; duplicates ${summary.duplicateKeys.length}\n`,
  );

  // Every notification of both tenants ended, its history complete (the cascade's at most three spent calls).
  for (const tenantViews of views) for (const view of tenantViews) expectCompleteHistory(view);
  for (const p of perTenant) {
    expect(p.ended).toBe(PER_TENANT);
    expect(p.receivedTwice).toBe(0);
    expect(p.delivered / PER_TENANT).toBeGreaterThanOrEqual(0.99);
  }
  // No provider received any (tenant, event, recipient) twice, and what each tenant's records
  // say was delivered is what the providers received for it, on that channel.
  expect(summary.duplicateKeys).toEqual([]);
  TENANTS.forEach((_, t) =>
    (views[t] ?? []).forEach((view, i) => {
      const received = deliveriesOf[t]?.[i] ?? [];
      if (view.status === 'delivered') expect(received.map((d) => d.channel)).toEqual([view.deliveredChannel]);
    }),
  );
  // The counts add up: the providers' delivered keys are the two tenants' and nothing else.
  expect(perTenant.reduce((sum, p) => sum + p.receivedKeys, 0)).toBe(summary.deliveredKeys);
  expect(summary.deliveries).toBe(summary.deliveredKeys);
  for (const p of perTenant) expect(p.receivedKeys).toBeGreaterThanOrEqual(p.delivered);
  expect(perTenant.reduce((sum, p) => sum + p.recovered, 0)).toBeGreaterThan(0);
});
