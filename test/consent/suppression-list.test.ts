import request from 'supertest';
import { Redis } from 'ioredis';
import { partitionOfRecipient, recipientHash, suppressionIndexKey, type NotificationView } from '@notify/core';
import { waitFor } from '@notify/platform-kit';
import { OTHER_TENANT_KEY, startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';

/**
 * The tenant's suppression list (docs/preferences.md, "Suppressions") through the real api and
 * worker on four partitions: added, paged across partitions, lifted; the worker's own
 * suppressions (a dead SMS number, an e-mail complaint) listed with their reason; no address in
 * an answer; another tenant sees and lifts none; expired ones are gone.
 */
const PARTITIONS = 4;
const EMAIL_SECRET = 'email-event-secret-0123456789';
const PHONE = '+905559876543';
const EMAIL = 'listed-user@example.com';

let platform: TestPlatform;
let redis: Redis;
beforeAll(async () => {
  // Every SMS address fails permanently (the simulator says the number is dead); e-mail is delivered.
  platform = await startTestPlatform({
    simEnv: { SIM_TRANSIENT_RATES: '0,0,0', SIM_PERMANENT_RATES: '0,1,0' },
    env: { PARTITIONS: String(PARTITIONS), PROVIDER_EVENT_SECRETS: `email:${EMAIL_SECRET}` },
  });
  redis = new Redis(platform.redis.url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  redis?.disconnect();
  await platform?.stop();
});

const api = () => request(platform.api.url);
const auth = { authorization: `Bearer ${TEST_API_KEY}` };
const other = { authorization: `Bearer ${OTHER_TENANT_KEY}` };

interface Item {
  recipientId?: string;
  recipientHash: string;
  channel: string;
  reason: string;
  suppressedAt: number;
  expiresAt: number;
}

/** Every page of the list (`query` without cursor), and the raw answers' text. */
async function listAll(query: Record<string, string> = {}, headers = auth): Promise<{ items: Item[]; pages: number; text: string }> {
  const items: Item[] = [];
  let cursor: string | undefined;
  let pages = 0;
  let text = '';
  do {
    const res = await api()
      .get('/v1/suppressions')
      .query({ ...query, ...(cursor ? { cursor } : {}) })
      .set(headers);
    expect(res.status).toBe(200);
    text += res.text;
    items.push(...(res.body.items as Item[]));
    cursor = res.body.nextCursor as string | undefined;
    pages += 1;
  } while (cursor !== undefined);
  return { items, pages, text };
}

const add = (body: object, headers = auth) => api().post('/v1/suppressions').set(headers).send(body);
const ids = (items: Item[], channel?: string) => items.filter((i) => channel === undefined || i.channel === channel).map((i) => i.recipientId);

/** Recipient ids of this tenant, at least one in each partition. */
function spreadIds(prefix: string): string[] {
  const chosen = new Map<number, string>();
  for (let i = 0; chosen.size < PARTITIONS; i += 1) {
    const id = `${prefix}-${i}`;
    const p = partitionOfRecipient(recipientHash('tenant-a', id), PARTITIONS);
    if (!chosen.has(p)) chosen.set(p, id);
  }
  return [...chosen.values()];
}

it('adds, pages across partitions, lifts; the old lift route and a profile change take entries out too', async () => {
  const recipients = spreadIds('paged');
  for (const id of recipients) expect((await add({ recipientId: id, channel: 'email', reason: 'manual' })).status).toBe(201);
  const again = await add({ recipientId: recipients[0], channel: 'email', reason: 'complaint', ttlSeconds: 600 });
  expect(again.status).toBe(200);
  expect(again.body).toMatchObject({
    recipientId: recipients[0],
    channel: 'email',
    reason: 'complaint',
    recipientHash: recipientHash('tenant-a', recipients[0]!),
  });
  expect(again.body.expiresAt - again.body.suppressedAt).toBe(600_000);
  expect((await add({ recipientId: recipients[1], channel: 'push', reason: 'expired-subscription' })).status).toBe(201);

  const listed = await listAll({ limit: '1' });
  expect(listed.pages).toBeGreaterThanOrEqual(recipients.length + 1);
  expect(new Set(ids(listed.items, 'email'))).toEqual(new Set(recipients));
  expect(listed.items.filter((i) => i.recipientId === recipients[0])).toEqual([expect.objectContaining({ reason: 'complaint' })]);
  expect(ids((await listAll({ channel: 'push' })).items)).toContain(recipients[1]);
  expect(ids((await listAll({ channel: 'push' })).items)).not.toContain(recipients[0]);

  expect((await api().delete(`/v1/suppressions/${recipients[0]}/email`).set(auth)).status).toBe(204);
  expect((await api().delete(`/v1/suppressions/${recipients[0]}/email`).set(auth)).status).toBe(404);
  expect((await api().delete(`/v1/recipients/${recipients[1]}/suppressions/email`).set(auth)).status).toBe(204);
  expect(
    (
      await api()
        .put(`/v1/recipients/${recipients[2]}`)
        .set(auth)
        .send({ addresses: { email: EMAIL } })
    ).status,
  ).toBe(201);
  const left = ids((await listAll()).items, 'email');
  for (const gone of recipients.slice(0, 3)) expect(left).not.toContain(gone);
  expect(left).toContain(recipients[3]);
  // Lifted entries leave the index in the same transaction.
  const rh = recipientHash('tenant-a', recipients[0]!);
  expect(await redis.zscore(suppressionIndexKey('tenant-a', partitionOfRecipient(rh, PARTITIONS)), `${rh}:email`)).toBeNull();
});

it("keeps tenants apart: another tenant's suppressions are neither listed nor lifted", async () => {
  expect((await add({ recipientId: 'shared-id', channel: 'sms', reason: 'manual' })).status).toBe(201);
  expect(ids((await listAll({}, other)).items)).not.toContain('shared-id');
  expect((await api().delete('/v1/suppressions/shared-id/sms').set(other)).status).toBe(404);
  expect(ids((await listAll()).items, 'sms')).toContain('shared-id');
});

it("lists the worker's suppression of a dead number (bounce) and a complaint's (complaint), never an address", async () => {
  expect(
    (
      await api()
        .put('/v1/recipients/listed-user')
        .set(auth)
        .send({ addresses: { sms: PHONE, email: EMAIL }, preferences: ['sms', 'email'] })
    ).status,
  ).toBe(201);
  const res = await api()
    .post('/v1/notifications')
    .set(auth)
    .send({ eventId: 'listed-1', priority: 'urgent', recipient: { id: 'listed-user' }, content: { title: 't', body: 'b' } });
  expect(res.status).toBe(202);
  // Through the api: it reads the record in its partition.
  const view = await waitFor(
    'the notification delivered by e-mail',
    async () => {
      const status = await api()
        .get(`/v1/notifications/${res.body.id as string}`)
        .set(auth);
      return status.body.status === 'delivered' ? (status.body as NotificationView) : undefined;
    },
    20_000,
  );
  expect(view.attempts.map((a) => [a.channel, a.outcome])).toEqual([
    ['sms', 'permanent'],
    ['email', 'delivered'],
  ]);

  const complaint = await api()
    .post('/v1/providers/email/events')
    .set('authorization', `Bearer ${EMAIL_SECRET}`)
    .send({ eventId: 'listed-complaint', type: 'complained', providerMessageId: `notify-${view.id}` });
  expect(complaint.body).toMatchObject({ status: 'applied', notificationStatus: 'complained' });

  const listed = await listAll();
  const mine = listed.items.filter((i) => i.recipientId === 'listed-user');
  expect(mine).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ channel: 'sms', reason: 'bounce', recipientHash: recipientHash('tenant-a', 'listed-user') }),
      expect.objectContaining({ channel: 'email', reason: 'complaint' }),
    ]),
  );
  expect(mine).toHaveLength(2);
  for (const item of mine) expect(item.suppressedAt).toBeLessThanOrEqual(Date.now());
  expect(listed.text).not.toContain(PHONE);
  expect(listed.text).not.toContain('905559876543');
  expect(listed.text).not.toContain(EMAIL);
});

it('drops expired suppressions from the list and from the index', async () => {
  const added = await add({ recipientId: 'short-lived', channel: 'push', reason: 'manual', ttlSeconds: 1 });
  expect(added.status).toBe(201);
  expect(ids((await listAll({ channel: 'push' })).items)).toContain('short-lived');
  await waitFor('the short suppression to lapse', async () => !ids((await listAll({ channel: 'push' })).items).includes('short-lived'), 10_000, 100);
  const rh = recipientHash('tenant-a', 'short-lived');
  expect(await redis.zscore(suppressionIndexKey('tenant-a', partitionOfRecipient(rh, PARTITIONS)), `${rh}:push`)).toBeNull();
});

it('refuses bad input with a 400 naming the field', async () => {
  const field = (res: request.Response) => (res.body.error.details as { field: string }[]).map((d) => d.field);
  const badReason = await add({ recipientId: 'x', channel: 'email', reason: 'annoyed' });
  expect(badReason.status).toBe(400);
  expect(field(badReason)).toEqual(['reason']);
  expect(field(await add({ recipientId: 'x', channel: 'fax', reason: 'manual' }))).toEqual(['channel']);
  expect(field(await add({ recipientId: 'x', channel: 'sms', reason: 'manual', ttlSeconds: 0 }))).toEqual(['ttlSeconds']);
  expect(field(await add({ channel: 'sms', reason: 'manual' }))).toEqual(['recipientId']);
  for (const [query, name] of [
    [{ channel: 'fax' }, 'channel'],
    [{ cursor: 'not-a-cursor' }, 'cursor'],
    [{ limit: '0' }, 'limit'],
    [{ reason: 'bounce' }, 'reason'],
  ] as const) {
    const res = await api().get('/v1/suppressions').query(query).set(auth);
    expect(res.status).toBe(400);
    expect(field(res)).toEqual([name]);
  }
  const lift = await api().delete('/v1/suppressions/x/fax').set(auth);
  expect(lift.status).toBe(400);
  expect(field(lift)).toEqual(['channel']);
});
