import request from 'supertest';
import { addressHash, notificationId, notificationKey, recipientHash, type Channel } from '@notify/core';
import { ChannelQueues, OPEN_GATE, loadScripts, type ChannelGate, type GateTicket } from '@notify/pipeline';
import { createRedis, waitUntilReady } from '@notify/runtime';
import { waitAllTerminal } from '../harness/notification-poll';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';

/**
 * A message that can never be rendered for a channel. Intake refuses it with 400;
 * one that got past validation anyway (written by an older intake, a lower limit) is a
 * processing error for that channel in the worker: recorded as such, no call spent, no
 * "worker lost", and the cascade goes on to the next channel.
 */
/** Every channel callable; remembers how each ticket was released (the breaker's view of each step). */
const releases: [Channel, string][] = [];
const recordingGate: ChannelGate = {
  openChannels: () => OPEN_GATE.openChannels(),
  acquire: async (channel): Promise<GateTicket> => ({
    provider: channel,
    release: async (outcome) => {
      releases.push([channel, outcome]);
    },
  }),
  close: async () => undefined,
};

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ simEnv: { SIM_TRANSIENT_RATES: '0,0,0', SIM_PERMANENT_RATES: '0,0,0' }, gateFor: () => recordingGate });
});
afterAll(async () => {
  await platform?.stop();
});

const auth = { authorization: `Bearer ${TEST_API_KEY}` };
const addresses = { push: 'tok-poison', sms: '+905551110000', email: 'poison@example.com' };
/** 40 entries, each within the per-entry limits (keys <= 64, values <= 1,024), over 4 KB together. */
const bulkyData = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key-${String(i).padStart(60, '0')}`, 'v'.repeat(100)]));
const poison = { title: 'Parcel', body: 'On its way', overrides: { push: { data: bulkyData } } };

it('answers 400 naming the field when the push payload can never fit', async () => {
  const res = await request(platform.api.url)
    .post('/v1/notifications')
    .set(auth)
    .send({ eventId: 'poison-api', priority: 'urgent', recipient: { id: 'r-poison', addresses }, content: poison });
  expect(res.status).toBe(400);
  expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'content.overrides.push.data' })]);
});

it('a record past validation: push is a processing error, SMS delivers, one call spent', async () => {
  const redis = createRedis(platform.redis.url, 'producer');
  await waitUntilReady(redis);
  const queues = new ChannelQueues(redis);
  try {
    const id = notificationId('tenant-a', 'poison-worker', 'r-poison');
    const rh = recipientHash('tenant-a', 'r-poison');
    const plan: Channel[] = ['push', 'sms', 'email'];
    const reply = await loadScripts(redis).intake({
      id,
      fingerprint: 'older-intake',
      tenant: 'tenant-a',
      eventId: 'poison-worker',
      recipientId: 'r-poison',
      rh,
      priority: 'urgent',
      plan,
      firstChannel: 'push',
      content: poison,
      addresses,
      addressHashes: Object.fromEntries(plan.map((c) => [c, addressHash(c, addresses[c])])),
      now: Date.now(),
      recordTtlSeconds: 3_600,
      skips: [],
    });
    expect(reply).toMatchObject({ code: 'created', status: 'accepted', skipped: [] });
    await queues.enqueueStep('urgent', { id, rh, priority: 'urgent', step: 1, channel: 'push' });

    const [view] = await waitAllTerminal(platform.redis.url, [id], 20_000);
    expect(view).toMatchObject({ status: 'delivered', deliveredChannel: 'sms' });
    expect(view?.attempts.map((a) => [a.channel, a.outcome, a.errorClass, a.spent])).toEqual([
      ['push', 'processing-error', 'render-failed', false],
      ['sms', 'delivered', undefined, undefined],
    ]);
    expect(await redis.hget(notificationKey(id), 'calls')).toBe('1');
    const ledger = (await (await fetch(`${platform.sims.controlUrl}/ledger`)).json()) as { deliveries: number; calls: Record<string, number> };
    expect(ledger.calls.push ?? 0).toBe(0);
    expect(ledger.calls.sms).toBe(1);
    expect(ledger.deliveries).toBe(1);
    // The push ticket was given back as not called: a poison message never counts against push's breaker.
    expect(releases).toEqual([
      ['push', 'not-called'],
      ['sms', 'delivered'],
    ]);
  } finally {
    await queues.close();
    await redis.quit();
  }
});
