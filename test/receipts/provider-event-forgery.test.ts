import request from 'supertest';
import { Redis } from 'ioredis';
import pino from 'pino';
import { archiveQueueKey, notificationKey, suppressionKey, type Channel, type NotificationView } from '@notify/core';
import { PIPELINE_LUA_DIR, ReceiptService, defineLuaCommands, receiptEventKey } from '@notify/pipeline';
import type { ProviderIdentity } from '@notify/providers';
import { readViews, waitAllTerminal } from '../harness/notification-poll';
import { startTestPlatform, TEST_API_KEY, OTHER_TENANT_KEY, type TestPlatform } from '../harness/platform';

/**
 * Provider events from one provider never change another provider's attempt, nor another
 * tenant's notification, and tell nothing about notifications that provider never handled
 * (docs/provider-events.md, "Who may change what"). Through the real api, worker and simulators.
 */
const SECRETS = { email: 'email-event-secret-0123456789', sms: 'sms-event-secret-0123456789ab', push: 'push-event-secret-0123456789a' };

let platform: TestPlatform;
let redis: Redis;

beforeAll(async () => {
  platform = await startTestPlatform({
    workerCount: 1,
    simEnv: { SIM_TRANSIENT_RATES: '0,0,0', SIM_PERMANENT_RATES: '0,0,0' },
    env: {
      PROVIDER_EVENT_SECRETS: Object.entries(SECRETS)
        .map(([name, secret]) => `${name}:${secret}`)
        .join(','),
    },
  });
  redis = new Redis(platform.redis.url, { maxRetriesPerRequest: 1 });
}, 60_000);

afterAll(async () => {
  redis?.disconnect();
  await platform?.stop();
});

const events = (provider: keyof typeof SECRETS) =>
  request(platform.api.url).post(`/v1/providers/${provider}/events`).set('authorization', `Bearer ${SECRETS[provider]}`);
const messageIdOf = (id: string) => `notify-${id}`;
const view = async (id: string) => (await readViews(platform.redis.url, [id]))[0]!;

let seq = 0;
async function deliver(recipientId: string, preferences: Channel[], key = TEST_API_KEY): Promise<NotificationView> {
  seq += 1;
  const res = await request(platform.api.url)
    .post('/v1/notifications')
    .set('authorization', `Bearer ${key}`)
    .send({
      eventId: `forgery-${Date.now()}-${seq}`,
      priority: 'urgent',
      recipient: { id: recipientId, addresses: { push: `tok-${recipientId}`, email: `${recipientId}@example.com`, sms: '+905551112233' }, preferences },
      content: { title: 'Merhaba', body: 'Siparişiniz yolda.' },
    });
  expect(res.status).toBe(202);
  const [done] = await waitAllTerminal(platform.redis.url, [res.body.id as string], 30_000);
  return done!;
}

async function setChannel(channel: Channel, behaviour: object): Promise<void> {
  const res = await fetch(`${platform.sims.controlUrl}/control/channels/${channel}${Object.keys(behaviour).length ? '' : '/restore'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(behaviour),
  });
  expect(res.status).toBe(200);
}

it("another provider's secret cannot bounce a push-delivered notification: unmatched, nothing changed, push not suppressed", async () => {
  const pushed = await deliver('forged-push', ['push']);
  expect(pushed).toMatchObject({ status: 'delivered', deliveredChannel: 'push' });
  const res = await events('email').send({ eventId: 'forged-1', type: 'bounced', providerMessageId: messageIdOf(pushed.id) });
  expect([res.status, res.body]).toEqual([202, { status: 'unmatched' }]);
  const after = await view(pushed.id);
  expect(after.status).toBe('delivered');
  expect(after.attempts[0]!.receipts).toBeUndefined();
  // The recipient's push channel is not suppressed: the next notification goes out on push.
  expect(await deliver('forged-push', ['push', 'email'])).toMatchObject({ status: 'delivered', deliveredChannel: 'push' });
}, 60_000);

it("the SMS secret cannot complain about another tenant's push notification, and the answer equals a never-sent id's", async () => {
  const theirs = await deliver('other-tenant-user', ['push'], OTHER_TENANT_KEY);
  const forged = await events('sms').send({ eventId: 'forged-2', type: 'complained', providerMessageId: messageIdOf(theirs.id) });
  const neverSent = await events('sms').send({ eventId: 'forged-3', type: 'complained', providerMessageId: messageIdOf('0'.repeat(32)) });
  expect([forged.status, forged.body]).toEqual([neverSent.status, neverSent.body]);
  expect(forged.body).toEqual({ status: 'unmatched' });
  expect((await view(theirs.id)).status).toBe('delivered');
});

it('an event id is de-duplicated per provider and notification: the same id applies to two notifications, and once through another path', async () => {
  const a = await deliver('dedup-a', ['email']);
  const b = await deliver('dedup-b', ['email']);
  const body = (id: string) => ({ eventId: 'shared-event-id', type: 'delivered', providerMessageId: messageIdOf(id) });
  expect((await events('email').send(body(a.id))).body).toMatchObject({ status: 'applied', notificationId: a.id });
  expect((await events('email').send(body(b.id))).body).toMatchObject({ status: 'applied', notificationId: b.id });
  expect((await events('email').send(body(a.id))).body).toEqual({ status: 'duplicate', notificationId: a.id });
  // The same event through the SMS path: SMS made no attempt of it, so nothing is applied again.
  expect((await events('sms').send(body(a.id))).body).toEqual({ status: 'unmatched' });
  expect((await view(a.id)).attempts[0]!.receipts).toHaveLength(1);
  expect((await view(b.id)).attempts[0]!.receipts).toHaveLength(1);
}, 60_000);

it('a provider that made an attempt of the notification is told `refused: provider mismatch` for the attempt another provider made', async () => {
  // SMS refuses the address (permanent), the cascade delivers by e-mail: both providers handled it.
  await setChannel('sms', { permanentRate: 1 });
  let v: NotificationView;
  try {
    v = await deliver('mismatch-user', ['sms', 'email']);
  } finally {
    await setChannel('sms', {});
  }
  expect(v.attempts.map((a) => [a.provider, a.outcome])).toEqual([
    ['sms', 'permanent'],
    ['email', 'delivered'],
  ]);
  const refused = await events('sms').send({ eventId: 'mm-1', type: 'bounced', providerMessageId: messageIdOf(v.id) });
  expect([refused.status, refused.body]).toEqual([202, { status: 'refused', reason: 'provider mismatch' }]);
  // Push made no attempt of it: the same mismatch reads as unmatched.
  expect((await events('push').send({ eventId: 'mm-2', type: 'bounced', providerMessageId: messageIdOf(v.id) })).body).toEqual({ status: 'unmatched' });
  expect((await view(v.id)).status).toBe('delivered');
  const applied = await events('email').send({ eventId: 'mm-3', type: 'bounced', providerMessageId: messageIdOf(v.id) });
  expect(applied.body).toMatchObject({ status: 'applied', notificationStatus: 'bounced' });
  const metrics = await (await fetch(platform.api.metricsUrl)).text();
  expect(metrics).toMatch(/^notify_provider_events_total\{provider="sms",result="refused"[^}]*\} [1-9]/m);
}, 60_000);

it('apply-receipt-4 itself refuses a provider or channel other than the attempt’s (code 5), changing nothing', async () => {
  const v = await deliver('lua-check', ['email']);
  const command = defineLuaCommands(redis, PIPELINE_LUA_DIR, 'test', ['apply-receipt-4'])('apply-receipt-4');
  const call = (provider: string, channel: string, eventId: string) =>
    command(
      notificationKey(v.id),
      suppressionKey('rh', 'email'),
      receiptEventKey(provider, v.id, eventId),
      archiveQueueKey(),
      messageIdOf(v.id),
      'bounced',
      'hard',
      Date.now(),
      '',
      Date.now(),
      60,
      60,
      0,
      v.id,
      1,
      provider,
      channel,
    );
  expect(await call('sms', 'sms', 'lua-1')).toEqual([5]);
  expect(await call('email', 'sms', 'lua-2')).toEqual([5]);
  expect(await redis.exists(suppressionKey('rh', 'email'), receiptEventKey('sms', v.id, 'lua-1'))).toBe(0);
  expect((await view(v.id)).status).toBe('delivered');
  expect(await call('email', 'email', 'lua-3')).toEqual([0, 'bounced', 'delivered', 'email', 1]);
}, 60_000);

describe('a notify- message id names a notification only for a provider that echoes idempotency keys', () => {
  const service = (echoesIdempotencyKey: boolean) =>
    new ReceiptService({
      redis,
      logger: pino({ level: 'silent' }),
      providers: new Map<string, ProviderIdentity>([['email', { name: 'email', kind: 'simulator', channel: 'email', echoesIdempotencyKey }]]),
      suppressionTtlSeconds: 0,
    });

  it('a provider that does not declare it cannot name a notification by its idempotency key', async () => {
    const v = await deliver('echo-user', ['email']);
    const event = { provider: 'email', providerMessageId: messageIdOf(v.id), kind: 'delivered' as const, eventId: 'echo-1' };
    expect(await service(false).apply(event)).toEqual({ status: 'unmatched' });
    expect(await service(true).apply(event)).toMatchObject({ status: 'applied', notificationId: v.id });
  }, 60_000);
});
