import request from 'supertest';
import type { NotificationView } from '@notify/core';
import { waitFor } from '@notify/platform-kit';
import { readViews } from './notification-poll';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from './platform';
import { simulatorControl, type SimulatorControl } from './sim-control';

export interface UnsettledPush extends SimulatorControl {
  platform: () => TestPlatform;
  /** The notification's view, read straight from Redis. */
  view: (id: string) => Promise<NotificationView>;
  /** Its attempts refused at connect (they never left, so they spend nothing). */
  refused: (v: NotificationView) => NotificationView['attempts'];
  /**
   * Posts an urgent notification (all three channels) whose first push call times out after the
   * provider delivered (push answers after 1 s, the call waits 300 ms), then takes push down and
   * waits for `refusals` reconciliations refused at connect. Returns its id.
   */
  timeOutThenGoDown: (eventId: string, refusals: number) => Promise<string>;
}

/**
 * A platform per test file (breakers off, no random provider errors, 300 ms provider calls, push
 * re-checked every 200 ms while down; `env` adds the reconcile delay and the maximum age) for the
 * tests of an unknown outcome whose channel then refuses connections.
 */
export function useUnsettledPush(env: Record<string, string>): UnsettledPush {
  let platform: TestPlatform | undefined;
  beforeAll(async () => {
    platform = await startTestPlatform({
      env: { BREAKER_ENABLED: 'false', PROVIDER_TIMEOUT_MS: '300', CASCADE_UNAVAILABLE_RETRY_MS: '200', ...env },
      simEnv: { SIM_TRANSIENT_RATES: '0,0,0', SIM_PERMANENT_RATES: '0,0,0' },
    });
  });
  afterAll(async () => {
    await platform?.stop();
  });
  const running = () => platform as TestPlatform;
  const sims = simulatorControl(() => running().sims.controlUrl);
  const view = async (id: string) => (await readViews(running().redis.url, [id]))[0] as NotificationView;
  const refused = (v: NotificationView) => v.attempts.filter((a) => a.errorClass === 'ECONNREFUSED');
  const timeOutThenGoDown = async (eventId: string, refusals: number): Promise<string> => {
    const before = await sims.ledger();
    await sims.control('/control/channels/push', { mode: 'slow', slowMs: 1_000 });
    const res = await request(running().api.url)
      .post('/v1/notifications')
      .set({ authorization: `Bearer ${TEST_API_KEY}` })
      .send({
        eventId,
        priority: 'urgent',
        content: { title: 't', body: 'b' },
        recipient: { id: `r-${eventId}`, addresses: { push: 'tok', sms: '+905551112233', email: 'r@example.com' } },
      });
    expect(res.status).toBe(202);
    const id = res.body.id as string;
    await waitFor('the first push call to end unknown', async () => (await view(id)).attempts[0]?.outcome === 'unknown', 10_000);
    await waitFor('the provider to deliver the timed-out call', async () => (await sims.ledger()).deliveries === before.deliveries + 1, 10_000);
    await sims.control('/control/channels/push', { mode: 'down' });
    await waitFor(`${refusals} reconciliation(s) refused at connect`, async () => refused(await view(id)).length >= refusals, 10_000);
    return id;
  };
  return { ...sims, platform: running, view, refused, timeOutThenGoDown };
}
