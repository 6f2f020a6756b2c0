import { renderForChannel, type RenderedMessage } from '@notify/core';
import { LoopbackPushService, type PushServiceBehaviour } from '@notify/providers/testing';
import type { TestPlatform } from '../harness/platform';
import { oneChannel, postNotification, startWithProviders, TURKISH, waitTerminal } from './real-provider-harness';

/**
 * Web Push through the real worker (api → Redis → worker → WebPushAdapter → an RFC 8030 push
 * service on loopback that verifies the VAPID JWT and decrypts the aes128gcm payload):
 * delivered (201), transient (500), permanent (410, then suppressed), unknown (read, never answered).
 */
let service: LoopbackPushService;
let platform: TestPlatform;

beforeAll(async () => {
  service = await LoopbackPushService.start();
  // A stalled push service becomes unknown after requestMs.
  platform = await startWithProviders([service.providerConfig({ timeouts: { connectMs: 500, requestMs: 1500 } })]);
});

afterAll(async () => {
  await platform?.stop();
  await service?.close();
});

function subscription(behaviour: PushServiceBehaviour) {
  const { id, ...address } = service.subscribe(behaviour);
  return { id, address };
}

const push = (eventId: string, recipientId: string, address: unknown) => oneChannel('push', eventId, recipientId, address, TURKISH);
const receivedBy = (subscriptionId: string) => service.received.filter((r) => r.subscriptionId === subscriptionId);

describe('Web Push through the worker', () => {
  it('delivered: one attempt on push-web; the push service verified VAPID and decrypted the rendered payload (TTL and urgency of an urgent one)', async () => {
    const { id: sub, address } = subscription('accept');
    const id = await postNotification(platform.api.url, push('wp-ok', 'wp-user-ok', address));
    const view = await waitTerminal(platform.redis.url, id);
    expect(view.status).toBe('delivered');
    expect(view.attempts).toEqual([expect.objectContaining({ channel: 'push', provider: 'push-web', outcome: 'delivered' })]);
    const received = receivedBy(sub);
    expect(received).toHaveLength(1);
    const expected = (renderForChannel('push', TURKISH, { smsMaxSegments: 10 }) as Extract<RenderedMessage, { channel: 'push' }>).push.payload;
    expect(JSON.parse(received[0]!.plaintext)).toEqual(expected);
    expect(JSON.parse(received[0]!.plaintext)).toMatchObject({ title: TURKISH.title, body: TURKISH.body });
    expect(received[0]).toMatchObject({ ttl: '900', urgency: 'high', vapidPublicKey: service.vapid.publicKey });
    expect(service.refused).toEqual([]);
  });

  it('transient: a 500 from the push service is retried on push-web until the budget of 3 calls is spent', async () => {
    const { id: sub, address } = subscription('error');
    const view = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, push('wp-error', 'wp-user-error', address)));
    expect(view.status).toBe('failed');
    expect(view.attempts.map((a) => [a.provider, a.outcome, a.errorClass])).toEqual([
      ['push-web', 'transient', 'http-500'],
      ['push-web', 'transient', 'http-500'],
      ['push-web', 'transient', 'http-500'],
    ]);
    expect(receivedBy(sub)).toHaveLength(3);
  });

  it('permanent: 410 (expired subscription) fails at once; the next notification to the recipient skips push as suppressed without a request', async () => {
    const { id: sub, address } = subscription('gone');
    const view = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, push('wp-gone-1', 'wp-user-gone', address)));
    expect(view.status).toBe('failed');
    expect(view.attempts).toEqual([expect.objectContaining({ provider: 'push-web', outcome: 'permanent', errorClass: 'http-410' })]);
    expect(receivedBy(sub)).toHaveLength(1);
    const requests = service.requests;

    const second = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, push('wp-gone-2', 'wp-user-gone', address)));
    expect(second.status).toBe('failed');
    expect(second.attempts).toEqual([]);
    expect(second.skips).toEqual([expect.objectContaining({ channel: 'push', reason: 'suppressed' })]);
    expect(service.requests).toBe(requests);
  });

  it('unknown: the push service reads the request and never answers; settled unconfirmed, sent once', async () => {
    const { id: sub, address } = subscription('stall');
    const view = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, push('wp-stall', 'wp-user-stall', address)));
    expect(view.status).toBe('unconfirmed');
    expect(view.attempts).toEqual([expect.objectContaining({ provider: 'push-web', outcome: 'unknown', errorClass: 'timeout' })]);
    expect(receivedBy(sub)).toHaveLength(1);
  });
});
