import { LoopbackFcm } from '@notify/providers/testing';
import type { TestPlatform } from '../harness/platform';
import { oneChannel, postNotification, startWithProviders, TURKISH, waitTerminal } from './real-provider-harness';

/**
 * FCM HTTP v1 through the real worker (api → Redis → worker → FcmAdapter → a loopback token
 * endpoint and messages:send that verify the RS256 assertion, the bearer and the message shape):
 * delivered (200), transient (UNAVAILABLE), permanent (UNREGISTERED, then suppressed), unknown (never answered).
 */
const ACCOUNT = { client_email: 'notify-sender@notify-worker-1.iam.gserviceaccount.com', project_id: 'notify-worker-1' };

let peer: LoopbackFcm;
let platform: TestPlatform;

beforeAll(async () => {
  peer = await LoopbackFcm.start({ account: ACCOUNT });
  // A stalled messages:send becomes unknown after requestMs.
  platform = await startWithProviders([peer.providerConfig({ timeouts: { connectMs: 500, requestMs: 1500, tokenMs: 1500 } })]);
});

afterAll(async () => {
  await platform?.stop();
  await peer?.close();
});

const push = (eventId: string, recipientId: string, token: string) => oneChannel('push', eventId, recipientId, token, TURKISH);
const receivedFor = (token: string) => peer.received.filter((r) => r.message.token === token);

describe('FCM HTTP v1 through the worker', () => {
  it('delivered: one attempt on push-fcm; messages:send got the rendered notification with HIGH priority under a verified token', async () => {
    const id = await postNotification(platform.api.url, push('fcm-ok', 'fcm-user-ok', 'tok-device-ok'));
    const view = await waitTerminal(platform.redis.url, id);
    expect(view.status).toBe('delivered');
    expect(view.attempts).toEqual([expect.objectContaining({ channel: 'push', provider: 'push-fcm', outcome: 'delivered' })]);
    const received = receivedFor('tok-device-ok');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      project: ACCOUNT.project_id,
      message: {
        notification: { title: TURKISH.title, body: TURKISH.body },
        android: { priority: 'HIGH', ttl: '900s' },
        apns: { headers: { 'apns-priority': '10' } },
      },
    });
    expect(peer.refused).toEqual([]);
    expect(peer.tokensIssued.length).toBeGreaterThanOrEqual(1);
  });

  it('transient: UNAVAILABLE is retried on push-fcm until the budget of 3 calls is spent', async () => {
    const view = await waitTerminal(
      platform.redis.url,
      await postNotification(platform.api.url, push('fcm-unavailable', 'fcm-user-unavailable', 'tok-unavailable')),
    );
    expect(view.status).toBe('failed');
    expect(view.attempts.map((a) => [a.provider, a.outcome, a.errorClass])).toEqual([
      ['push-fcm', 'transient', 'UNAVAILABLE'],
      ['push-fcm', 'transient', 'UNAVAILABLE'],
      ['push-fcm', 'transient', 'UNAVAILABLE'],
    ]);
    expect(receivedFor('tok-unavailable')).toHaveLength(3);
  });

  it('permanent: UNREGISTERED fails at once; the next notification to the recipient skips push as suppressed without a send', async () => {
    const view = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, push('fcm-gone-1', 'fcm-user-gone', 'tok-unregistered')));
    expect(view.status).toBe('failed');
    expect(view.attempts).toEqual([expect.objectContaining({ provider: 'push-fcm', outcome: 'permanent', errorClass: 'UNREGISTERED' })]);
    const sends = peer.sendRequests;

    const second = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, push('fcm-gone-2', 'fcm-user-gone', 'tok-unregistered')));
    expect(second.status).toBe('failed');
    expect(second.attempts).toEqual([]);
    expect(second.skips).toEqual([expect.objectContaining({ channel: 'push', reason: 'suppressed' })]);
    expect(peer.sendRequests).toBe(sends);
  });

  it('unknown: messages:send reads the message and never answers; settled unconfirmed, sent once', async () => {
    const view = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, push('fcm-stall', 'fcm-user-stall', 'tok-stall')));
    expect(view.status).toBe('unconfirmed');
    expect(view.attempts).toEqual([expect.objectContaining({ provider: 'push-fcm', outcome: 'unknown', errorClass: 'timeout' })]);
    expect(receivedFor('tok-stall')).toHaveLength(1);
  });
});
