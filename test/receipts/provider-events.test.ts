import request from 'supertest';
import { Redis } from 'ioredis';
import { notificationKey, type NotificationView } from '@notify/core';
import { receiptIndexKey } from '@notify/pipeline';
import { waitFor } from '@notify/platform-kit';
import { readViews, waitAllTerminal } from '../harness/notification-poll';
import { startTestPlatform, TEST_API_KEY, OTHER_TENANT_KEY, type TestPlatform } from '../harness/platform';
import { startReceiver, type Receiver } from '../webhooks/receiver';

/**
 * Provider events in (docs/provider-events.md) through the real pipeline: api,
 * worker, simulated providers (whose message id is the idempotency key) and the harness's Redis.
 */
const EMAIL_SECRET = 'email-event-secret-0123456789';
const SMS_SECRET = 'sms-event-secret-0123456789ab';

let platform: TestPlatform;
let receiver: Receiver;
let redis: Redis;

const auth = (r: request.Test, key = TEST_API_KEY) => r.set('authorization', `Bearer ${key}`);
const events = (provider: string, secret = provider === 'email' ? EMAIL_SECRET : SMS_SECRET) =>
  request(platform.api.url).post(`/v1/providers/${provider}/events`).set('authorization', `Bearer ${secret}`);
/** The simulators' message id of a notification's call: its idempotency key. */
const messageIdOf = (id: string) => `notify-${id}`;

beforeAll(async () => {
  platform = await startTestPlatform({
    workerCount: 1,
    // No random refusals: each test decides what happens to its messages.
    simEnv: { SIM_TRANSIENT_RATES: '0,0,0', SIM_PERMANENT_RATES: '0,0,0' },
    env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '20', PROVIDER_EVENT_SECRETS: `email:${EMAIL_SECRET},sms:${SMS_SECRET}` },
  });
  redis = new Redis(platform.redis.url, { maxRetriesPerRequest: 1 });
  receiver = await startReceiver();
  const created = await auth(request(platform.api.url).post('/v1/webhooks')).send({
    url: receiver.url,
    events: ['notification.bounced', 'notification.complained', 'notification.delivered', 'notification.failed'],
  });
  expect(created.status).toBe(201);
}, 60_000);

afterAll(async () => {
  redis?.disconnect();
  await platform?.stop();
  await receiver?.close();
});

let seq = 0;
async function deliver(recipientId: string, preferences: string[] = ['email', 'sms']): Promise<NotificationView> {
  seq += 1;
  const res = await auth(request(platform.api.url).post('/v1/notifications')).send({
    eventId: `pe-${Date.now()}-${seq}`,
    priority: 'urgent',
    recipient: { id: recipientId, addresses: { email: `${recipientId}@example.com`, sms: '+905551112233' }, preferences },
    content: { title: 'Merhaba', body: 'Siparişiniz yolda.' },
  });
  expect(res.status).toBe(202);
  const [view] = await waitAllTerminal(platform.redis.url, [res.body.id as string], 30_000);
  return view!;
}

const view = async (id: string) => (await readViews(platform.redis.url, [id]))[0]!;
const webhookTypes = (id: string) =>
  receiver.requests
    .map((r) => JSON.parse(r.body) as { type: string; data: { id: string } })
    .filter((e) => e.data.id === id)
    .map((e) => e.type);

it('a hard bounce after delivery: bounced, the attempt keeps both, e-mail suppressed for the next notification (which cascades to SMS), notification.bounced emitted', async () => {
  const first = await deliver('bounce-user');
  expect(first).toMatchObject({ status: 'delivered', deliveredChannel: 'email' });
  expect(first.attempts[0]).toMatchObject({ provider: 'email', providerMessageId: messageIdOf(first.id) });
  // The simulator answers the idempotency key, which names the notification: no index entry is written for it.
  expect(await redis.get(receiptIndexKey('email', messageIdOf(first.id)))).toBeNull();

  const res = await events('email').send({
    eventId: 'bounce-1',
    type: 'bounced',
    bounceType: 'hard',
    providerMessageId: messageIdOf(first.id),
    detail: 'smtp; 550 5.1.1 user unknown',
  });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ status: 'applied', notificationId: first.id, notificationStatus: 'bounced' });

  const after = await view(first.id);
  expect(after.status).toBe('bounced');
  expect(after.deliveredChannel).toBe('email');
  expect(after.attempts[0]).toMatchObject({ outcome: 'delivered', receipt: 'bounced', receiptDetail: 'smtp; 550 5.1.1 user unknown' });
  expect(after.attempts[0]!.receipts).toEqual([expect.objectContaining({ kind: 'bounced', bounceType: 'hard' })]);
  const api = await auth(request(platform.api.url).get(`/v1/notifications/${first.id}`));
  expect(api.status).toBe(200);
  expect(api.body.status).toBe('bounced');

  await waitFor('notification.bounced at the receiver', () => webhookTypes(first.id).includes('notification.bounced') || undefined, 20_000, 50);

  const second = await deliver('bounce-user');
  expect(second).toMatchObject({ status: 'delivered', deliveredChannel: 'sms' });
  expect(second.skips).toEqual([expect.objectContaining({ channel: 'email', reason: 'suppressed' })]);
  expect(second.attempts.map((a) => a.channel)).toEqual(['sms']); // e-mail never called

  // Another recipient is not suppressed.
  expect(await deliver('other-user')).toMatchObject({ status: 'delivered', deliveredChannel: 'email' });

  const metrics = await (await fetch(platform.api.metricsUrl)).text();
  expect(metrics).toMatch(/^notify_receipts_total\{kind="bounced",channel="email"[^}]*\} 1$/m);
}, 60_000);

it('the same event twice is one change: the second answers duplicate', async () => {
  const v = await deliver('dup-user', ['email']);
  const body = { eventId: 'complaint-dup', type: 'complained', providerMessageId: messageIdOf(v.id) };
  const one = await events('email').send(body);
  const two = await events('email').send(body);
  expect(one.body).toMatchObject({ status: 'applied', notificationStatus: 'complained' });
  expect(two.status).toBe(200);
  expect(two.body).toEqual({ status: 'duplicate', notificationId: v.id });
  expect((await view(v.id)).attempts[0]!.receipts).toHaveLength(1);
});

it('a soft bounce is recorded and changes neither status nor suppression', async () => {
  const v = await deliver('soft-user', ['email']);
  const res = await events('email').send({
    eventId: 'soft-1',
    type: 'bounced',
    bounceType: 'soft',
    providerMessageId: messageIdOf(v.id),
    at: '2026-11-30T10:00:00Z',
  });
  expect(res.body).toMatchObject({ status: 'applied', notificationStatus: 'delivered' });
  const after = await view(v.id);
  expect(after.status).toBe('delivered');
  expect(after.attempts[0]).toMatchObject({ receipt: 'bounced', receiptAt: Date.parse('2026-11-30T10:00:00Z') });
  expect(await deliver('soft-user', ['email'])).toMatchObject({ status: 'delivered', deliveredChannel: 'email' });
});

describe('SNS-style notifications (text/plain JSON, as SNS posts them)', () => {
  const sns = (messageId: string, message: object) =>
    JSON.stringify({
      Type: 'Notification',
      MessageId: messageId,
      TopicArn: 'arn:aws:sns:eu-west-1:1:ses',
      Message: JSON.stringify(message),
      Timestamp: '2026-11-30T10:00:00.000Z',
    });

  it('Bounce (Permanent) → bounced; Complaint → complained; Bounce (Transient) → recorded only; SubscriptionConfirmation ignored', async () => {
    const a = await deliver('sns-a', ['email']);
    const b = await deliver('sns-b', ['email']);
    const c = await deliver('sns-c', ['email']);
    const post = (body: string) => events('email').set('content-type', 'text/plain; charset=UTF-8').send(body);
    const bounce = await post(
      sns('sns-1', {
        notificationType: 'Bounce',
        mail: { messageId: messageIdOf(a.id) },
        bounce: { bounceType: 'Permanent', bounceSubType: 'General', timestamp: '2026-11-30T10:00:00.000Z' },
      }),
    );
    expect(bounce.body).toMatchObject({ status: 'applied', notificationStatus: 'bounced' });
    const complaint = await post(
      sns('sns-2', { notificationType: 'Complaint', mail: { messageId: messageIdOf(b.id) }, complaint: { complaintFeedbackType: 'abuse' } }),
    );
    expect(complaint.body).toMatchObject({ status: 'applied', notificationStatus: 'complained' });
    const transient = await post(sns('sns-3', { notificationType: 'Bounce', mail: { messageId: messageIdOf(c.id) }, bounce: { bounceType: 'Transient' } }));
    expect(transient.body).toMatchObject({ status: 'applied', notificationStatus: 'delivered' });
    expect((await view(a.id)).attempts[0]).toMatchObject({ receipt: 'bounced', receiptDetail: 'Permanent General' });
    expect((await view(b.id)).status).toBe('complained');
    expect((await view(c.id)).status).toBe('delivered');
    await waitFor('notification.complained at the receiver', () => webhookTypes(b.id).includes('notification.complained') || undefined, 20_000, 50);

    const confirmation = await events('email')
      .set('content-type', 'application/json')
      .send({ Type: 'SubscriptionConfirmation', MessageId: 'x', Message: 'confirm', SubscribeURL: 'https://sns.example/confirm' });
    expect(confirmation.status).toBe(200);
    expect(confirmation.body).toEqual({ status: 'ignored' });
  }, 60_000);
});

describe('HTTP SMS status callbacks (form-encoded) and late receipts for unconfirmed notifications', () => {
  /** A delivered SMS turned into what an unknown outcome settled `unconfirmed` leaves (the call's answer never came). */
  async function unconfirmedSms(recipientId: string): Promise<NotificationView> {
    const v = await deliver(recipientId, ['sms']);
    const key = notificationKey(v.id);
    const attempt = JSON.parse((await redis.hget(key, 'a:1'))!) as Record<string, unknown>;
    await redis.hset(
      key,
      'a:1',
      JSON.stringify({ ...attempt, outcome: 'unknown', errorClass: 'timeout' }),
      'status',
      'unconfirmed',
      'reason',
      'unknown-outcome-budget-exhausted',
    );
    await redis.hdel(key, 'deliveredAt', 'deliveredChannel');
    return { ...v, status: 'unconfirmed' };
  }
  const form = (sid: string, status: string) => events('sms').type('form').send({ MessageSid: sid, MessageStatus: status, AccountSid: 'AC1' });

  it('a late `delivered` settles it delivered; `undelivered` settles another failed; a non-final status is ignored', async () => {
    const late = await unconfirmedSms('late-ok');
    expect((await form(messageIdOf(late.id), 'sent')).body).toEqual({ status: 'ignored' });
    const ok = await form(messageIdOf(late.id), 'delivered');
    expect(ok.body).toMatchObject({ status: 'applied', notificationStatus: 'delivered' });
    const settled = await view(late.id);
    expect(settled).toMatchObject({ status: 'delivered', deliveredChannel: 'sms' });
    expect(settled.attempts[0]).toMatchObject({ outcome: 'unknown', receipt: 'delivered' });

    const lost = await unconfirmedSms('late-lost');
    const failed = await form(messageIdOf(lost.id), 'undelivered');
    expect(failed.body).toMatchObject({ status: 'applied', notificationStatus: 'failed' });
    expect(await view(lost.id)).toMatchObject({ status: 'failed', failureReason: 'receipt-undeliverable' });
    await waitFor('notification.failed at the receiver', () => webhookTypes(lost.id).includes('notification.failed') || undefined, 20_000, 50);
  }, 60_000);
});

describe('refusals', () => {
  it('401 for a wrong or missing secret (and another provider’s secret); 404 for an unknown provider', async () => {
    const body = { eventId: 'x', type: 'delivered', providerMessageId: 'm' };
    expect((await events('email', 'wrong-secret-0000000000').send(body)).status).toBe(401);
    expect((await events('email', SMS_SECRET).send(body)).status).toBe(401);
    expect((await request(platform.api.url).post('/v1/providers/email/events').send(body)).status).toBe(401);
    const unknown = await events('nope', EMAIL_SECRET).send(body);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    // Basic auth with the secret as password (SNS and Twilio-style callback URLs) is accepted.
    const basic = await request(platform.api.url).post('/v1/providers/email/events').auth('sns', EMAIL_SECRET).send(body);
    expect(basic.status).toBe(202);
  });

  it('an unknown message id is 202 unmatched', async () => {
    const res = await events('email').send({ eventId: 'u-1', type: 'bounced', providerMessageId: 'never-sent' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'unmatched' });
  });

  it('bad bodies are a 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ type: 'delivered', providerMessageId: 'm' }, 'eventId'],
      [{ eventId: 'e', type: 'opened', providerMessageId: 'm' }, 'type'],
      [{ eventId: 'e', type: 'bounced' }, 'providerMessageId'],
      [{ eventId: 'e', type: 'bounced', providerMessageId: 'm', bounceType: 'medium' }, 'bounceType'],
      [{ eventId: 'e', type: 'bounced', providerMessageId: 'm', at: 'yesterday' }, 'at'],
      [{ Type: 'Notification', MessageId: 'x', Message: '{"notificationType":"Bounce"}' }, 'Message.mail'],
      [{ Type: 'Notification', MessageId: 'x', Message: 'not json' }, 'Message'],
    ];
    for (const [body, field] of cases) {
      const res = await events('email').send(body as object);
      expect([res.status, res.body.error?.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const formRes = await events('sms').type('form').send({ MessageSid: 'SM1', MessageStatus: 'exploded' });
    expect(formRes.status).toBe(400);
    expect(formRes.body.error.details[0].field).toBe('MessageStatus');
    expect((await events('email').set('content-type', 'application/json').send('{nope')).status).toBe(400);
  });

  it('fuzz: 300 random bodies never answer 5xx', async () => {
    let state = 12345;
    const rand = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const values = [null, 0, -1, 1e308, '', 'x'.repeat(2000), [], {}, true, 'delivered', 'bounced', 'hard', '2026-11-30T10:00:00Z', { a: 1 }];
    const fields = ['eventId', 'type', 'providerMessageId', 'at', 'bounceType', 'detail', 'Type', 'MessageId', 'Message', 'extra'];
    const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
    for (let i = 0; i < 300; i += 1) {
      const body: Record<string, unknown> = {};
      for (let f = 0; f < 1 + Math.floor(rand() * 6); f += 1) body[pick(fields)] = pick(values);
      const res =
        rand() < 0.2
          ? await events('sms')
              .type('form')
              .send({ MessageSid: JSON.stringify(pick(values)), MessageStatus: JSON.stringify(pick(values)) })
          : await events('email').send(body);
      expect(res.status).toBeLessThan(500);
    }
  }, 60_000);
});

describe('DELETE /v1/recipients/:id/suppressions/:channel', () => {
  it('lifts a suppression (204), then 404; another tenant sees none; a bad channel is a 400', async () => {
    const v = await deliver('lift-user', ['email', 'sms']);
    await events('email').send({ eventId: 'lift-bounce', type: 'bounced', providerMessageId: messageIdOf(v.id) });
    expect(await deliver('lift-user')).toMatchObject({ deliveredChannel: 'sms' });
    expect((await auth(request(platform.api.url).delete('/v1/recipients/lift-user/suppressions/email'), OTHER_TENANT_KEY)).status).toBe(404);
    expect((await auth(request(platform.api.url).delete('/v1/recipients/lift-user/suppressions/email'))).status).toBe(204);
    expect((await auth(request(platform.api.url).delete('/v1/recipients/lift-user/suppressions/email'))).status).toBe(404);
    const bad = await auth(request(platform.api.url).delete('/v1/recipients/lift-user/suppressions/fax'));
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('channel');
    expect(await deliver('lift-user')).toMatchObject({ deliveredChannel: 'email' });
  }, 60_000);
});
