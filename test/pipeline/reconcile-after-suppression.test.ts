import { Redis } from 'ioredis';
import { notificationKey, suppressionKey } from '@notify/core';
import { waitAllTerminal } from '../harness/notification-poll';
import { useUnsettledPush } from '../harness/unsettled-push';

/**
 * A push call ends unknown (it timed out after the provider delivered); while its reconciliation
 * waits (push refusing connections), push is suppressed for the recipient, as another
 * notification's permanent invalid-address does (finish-attempt's suppression key). The
 * reconciliation re-asks about the call already made, under its key: it is no new send, so the
 * suppression does not block it, and the notification ends instead of re-checking for good.
 * The maximum age is the production default, so only the rule can end it within the wait.
 */
const { platform, control, ledger, timeOutThenGoDown } = useUnsettledPush({ CASCADE_RECONCILE_DELAY_MS: '500' });

it('an unknown push outcome reconciles after push was suppressed for the recipient, and the notification ends', async () => {
  const before = await ledger();
  const id = await timeOutThenGoDown('unknown-then-suppressed', 1);

  const redis = new Redis(platform().redis.url, { maxRetriesPerRequest: 1 });
  try {
    const rh = (await redis.hget(notificationKey(id), 'rh')) as string;
    await redis.set(suppressionKey(rh, 'push'), '1', 'EX', 3_600);
    await control('/control/channels/push/restore');
    const [done] = await waitAllTerminal(platform().redis.url, [id], 15_000);

    expect(done).toMatchObject({ status: 'delivered', deliveredChannel: 'push' });
    // Only reconciliations of the push call after it (a busy machine may time one out too), the last one answered.
    const spent = done!.attempts.filter((a) => a.spent !== false).map((a) => [a.channel, a.kind, a.outcome]);
    expect(spent[0]).toEqual(['push', 'send', 'unknown']);
    expect(spent.at(-1)).toEqual(['push', 'reconcile', 'delivered']);
    expect(spent.slice(1).every(([channel, kind]) => channel === 'push' && kind === 'reconcile')).toBe(true);
    expect(done!.skips.filter((s) => s.reason === 'suppressed')).toEqual([]);
    // One delivery in all: the reconciliation was answered with the first call's result.
    expect((await ledger()).deliveries - before.deliveries).toBe(1);
  } finally {
    redis.disconnect();
  }
});
