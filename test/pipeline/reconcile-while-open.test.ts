import request from 'supertest';
import type { Channel } from '@notify/core';
import { OPEN_GATE, type ChannelGate, type GateTicket } from '@notify/pipeline';
import { readLedger, waitFor } from '@notify/platform-kit';
import { readViews, waitAllTerminal } from '../harness/notification-poll';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';

/**
 * An unknown outcome must be reconciled on its own channel, even while that channel's breaker
 * is open: the notification waits (re-checking at CASCADE_UNAVAILABLE_RETRY_MS), neither
 * cascading elsewhere (a possible second delivery) nor spinning through steps.
 */
class SwitchableGate implements ChannelGate {
  readonly open = new Set<Channel>();
  /** Channels that open as soon as one call has been let through: no race with the test's polling. */
  readonly openAfterNext = new Set<Channel>();
  /** When each step asked for an open channel and was refused: the waiting job's re-checks. */
  readonly refusedAt: number[] = [];
  async openChannels(): Promise<ReadonlySet<Channel>> {
    return new Set(this.open);
  }
  async acquire(channel: Channel): Promise<GateTicket | undefined> {
    if (this.open.has(channel)) {
      this.refusedAt.push(Date.now());
      return undefined;
    }
    if (this.openAfterNext.delete(channel)) this.open.add(channel);
    return { provider: channel, release: async () => undefined };
  }
  async close(): Promise<void> {}
}

const gate = new SwitchableGate();
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({
    simEnv: { SIM_TRANSIENT_RATES: '0,0,0', SIM_PERMANENT_RATES: '0,0,0' },
    env: { PROVIDER_TIMEOUT_MS: '300', CASCADE_RECONCILE_DELAY_MS: '100', CASCADE_UNAVAILABLE_RETRY_MS: '400', CASCADE_TRANSIENT_DELAY_MS: '100' },
    gateFor: (role) => (role === 'api' ? OPEN_GATE : gate),
  });
});
afterAll(async () => {
  await platform?.stop();
});

it('waits on the open channel at an interval, then reconciles there: one delivery, no cascade', async () => {
  // Push answers after 1.5 s: the first call times out (300 ms) and is unknown, but delivers.
  await fetch(`${platform.sims.controlUrl}/control/channels/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode: 'slow', slowMs: 1_500 }),
  });
  // Push opens in the gate the moment its first call is let through (polling for the unknown
  // outcome and opening it then raced the 100 ms reconcile delay on a busy machine).
  gate.openAfterNext.add('push');
  const res = await request(platform.api.url)
    .post('/v1/notifications')
    .set('authorization', `Bearer ${TEST_API_KEY}`)
    .send({
      eventId: 'reconcile-open',
      priority: 'urgent',
      recipient: { id: 'r-1', addresses: { push: 'tok', sms: '+905551112233', email: 'r1@example.com' } },
      content: { title: 't', body: 'b' },
    });
  expect(res.status).toBe(202);
  const id = res.body.id as string;
  await waitFor(
    'the first push call to end unknown',
    async () => {
      const [view] = await readViews(platform.redis.url, [id]);
      return view?.attempts[0]?.outcome === 'unknown';
    },
    30_000,
  );
  expect(gate.open.has('push')).toBe(true);

  // Push open: it waits, re-checking at the 400 ms interval (never sooner), calling nothing elsewhere.
  await waitFor('three re-checks of the open channel', async () => gate.refusedAt.length >= 3 || undefined, 30_000);
  const [waiting] = await readViews(platform.redis.url, [id]);
  expect(waiting!.status).not.toBe('delivered');
  expect(waiting!.attempts).toHaveLength(1);
  // The re-checks are recorded as one skip (channel, reason), not one per re-check: the record stays bounded.
  expect(waiting!.skips.map((skip) => [skip.channel, skip.reason])).toEqual([['push', 'breaker-open']]);
  const gaps = gate.refusedAt.slice(1).map((at, i) => at - gate.refusedAt[i]!);
  expect(gaps.filter((gap) => gap < 300)).toEqual([]);

  await fetch(`${platform.sims.controlUrl}/control/channels/push/restore`, { method: 'POST' });
  gate.open.delete('push');
  const [done] = await waitAllTerminal(platform.redis.url, [id], 30_000);
  expect(done).toMatchObject({ status: 'delivered', deliveredChannel: 'push' });
  expect(done?.attempts.map((a) => [a.channel, a.kind, a.outcome])).toEqual([
    ['push', 'send', 'unknown'],
    ['push', 'reconcile', 'delivered'],
  ]);
  const ledger = await readLedger(platform.sims.controlUrl);
  expect(ledger.deliveries).toBe(1);
  expect(ledger.calls.sms ?? 0).toBe(0);
  expect(ledger.calls.email ?? 0).toBe(0);
});
