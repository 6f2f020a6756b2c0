import { waitFor } from '@notify/platform-kit';
import { createNotifyClient, isNotifyError, verifyWebhook, type NotificationRequest, type NotifyClient } from '@notify/client';
import { startHistoryPlatform, type HistoryPlatform } from '../history/history-platform';
import { TEST_API_KEY } from '../harness/platform';
import { notificationFor } from '../fixtures/notifications';
import { startReceiver } from '../webhooks/receiver';

/**
 * Every method of @notify/client against the real api (history on, so the lists page through
 * PostgreSQL), and a webhook the platform signed, checked by verifyWebhook.
 */
let history: HistoryPlatform;
let client: NotifyClient;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  receiver = await startReceiver();
  history = await startHistoryPlatform('client_methods', { env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '20', CONSENT_CACHE_MS: '0' } });
  client = createNotifyClient({ baseUrl: history.platform.api.url, apiKey: TEST_API_KEY });
});
afterAll(async () => {
  await history?.stop();
  await receiver?.close();
});

const request = (index: number, prefix: string) => notificationFor(index, 'push', { prefix, priority: 'urgent' }) as NotificationRequest;

it('send, get, waitForTerminal and sendBatch', async () => {
  const accepted = await client.send(request(1, 'client-send'));
  expect(accepted).toMatchObject({ status: 'accepted', duplicate: false });
  await expect(client.send(request(1, 'client-send'))).resolves.toMatchObject({ id: accepted.id, duplicate: true });
  const view = await client.waitForTerminal(accepted.id, { timeoutMs: 30_000, intervalMs: 50 });
  expect(view).toMatchObject({ id: accepted.id, status: 'delivered', eventId: 'client-send-1' });
  expect(JSON.stringify(view)).not.toContain('push-token-1'); // never an address

  const batch = await client.sendBatch([
    request(2, 'client-batch'),
    { ...request(3, 'client-batch'), priority: 'soon' as 'urgent' },
    request(1, 'client-send'),
  ]);
  expect(batch).toMatchObject({ accepted: 1, rejected: 1, duplicates: 1 });
  expect(batch.results.map((r) => r.httpStatus)).toEqual([202, 400, 200]);
  await expect(client.get(batch.results[0]!.id!)).resolves.toMatchObject({ eventId: 'client-batch-2' });
});

it('list and recipients.notifications page through the history, newest first', async () => {
  const ids: string[] = [];
  for (let i = 0; i < 5; i += 1)
    ids.push((await client.send({ ...request(10 + i, 'client-list'), recipient: { ...request(10, 'x').recipient, id: 'list-user' } })).id);
  const listed = async () => {
    const found: string[] = [];
    for await (const item of client.list({ recipientId: 'list-user', limit: 2 })) found.push(item.id);
    return found.length === ids.length ? found : undefined;
  };
  const found = await waitFor('the five archived', listed, 30_000, 100);
  expect([...found].sort()).toEqual([...ids].sort());
  const pages: number[] = [];
  for await (const page of client.listPages({ recipientId: 'list-user', limit: 2 })) pages.push(page.items.length);
  expect(pages).toEqual([2, 2, 1]);
  const perRecipient: string[] = [];
  for await (const item of client.recipients.notifications('list-user', { limit: 3, eventId: 'client-list-12' })) perRecipient.push(item.eventId);
  expect(perRecipient).toEqual(['client-list-12']);
});

it('recipients: put, get, delete, and a typed NOT_FOUND with its request id', async () => {
  const profile = { addresses: { sms: '+905550000001' }, preferences: ['sms' as const] };
  await expect(client.recipients.put('client-profile', profile)).resolves.toMatchObject({ id: 'client-profile' });
  await expect(client.recipients.get('client-profile')).resolves.toMatchObject({ preferences: ['sms'] });
  await expect(client.recipients.delete('client-profile')).resolves.toBeUndefined();
  const error = await client.recipients.get('client-profile').catch((e: unknown) => e);
  expect(isNotifyError(error) && [error.status, error.code, typeof error.requestId]).toEqual([404, 'NOT_FOUND', 'string']);
});

it('webhooks: create, list, get, deliveries, retryDelivery, rotateSecret, delete; each delivery passes verifyWebhook', async () => {
  const endpoint = await client.webhooks.create({ url: receiver.url, events: ['notification.delivered'] });
  expect(endpoint.secret).toMatch(/^whsec_/);
  await expect(client.webhooks.list()).resolves.toMatchObject({ items: [expect.objectContaining({ id: endpoint.id })] });
  const accepted = await client.send(request(20, 'client-webhook'));
  const received = await waitFor('the delivered event', () => receiver.requests.find((r) => r.body.includes(accepted.id)), 30_000, 50);

  const event = verifyWebhook(received.headers, received.body, endpoint.secret);
  expect(event).toMatchObject({ type: 'notification.delivered', data: { id: accepted.id, status: 'delivered' } });
  const refused = (headers: Record<string, string>, body: string, secret: string) => {
    try {
      verifyWebhook(headers, body, secret);
      return undefined;
    } catch (error) {
      return isNotifyError(error) ? error.code : error;
    }
  };
  expect(refused(received.headers, received.body.replace('delivered', 'failed'), endpoint.secret)).toBe('UNAUTHORIZED');
  expect(refused(received.headers, received.body, `whsec_${Buffer.from('another secret of 24 bytes').toString('base64')}`)).toBe('UNAUTHORIZED');
  const replayed = { ...received.headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) };
  expect(refused(replayed, received.body, endpoint.secret)).toBe('UNAUTHORIZED');

  const deliveries = await waitFor('the delivery listed', async () => (await client.webhooks.deliveries(endpoint.id)).items[0], 10_000, 50);
  expect(deliveries).toMatchObject({ eventId: event.id, result: 'success' });
  await expect(client.webhooks.retryDelivery(endpoint.id, event.id)).resolves.toBeDefined();
  await waitFor('the retried delivery', () => receiver.requests.filter((r) => r.body.includes(accepted.id)).length >= 2, 10_000, 50);

  const rotated = await client.webhooks.rotateSecret(endpoint.id);
  expect(rotated.secret).not.toBe(endpoint.secret);
  await expect(client.webhooks.get(endpoint.id)).resolves.toMatchObject({ id: endpoint.id, previousSecretExpiresAt: expect.any(Number) });
  await expect(client.webhooks.delete(endpoint.id)).resolves.toBeUndefined();
  await expect(client.webhooks.get(endpoint.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
});

const later = () => new Date(Date.now() + 3_600_000).toISOString();

it('cancel: a scheduled notification ends canceled', async () => {
  const accepted = await client.send({ ...request(30, 'client-cancel'), sendAt: later() });
  await client.cancel(accepted.id);
  await expect(client.get(accepted.id)).resolves.toMatchObject({ status: 'canceled' });
});

it("cancelEvent: every notification of the event ends canceled, another event's does not", async () => {
  const event = [await client.send({ ...request(31, 'client-cancel-event'), sendAt: later() })];
  event.push(await client.send({ ...request(31, 'client-cancel-event'), recipient: { ...request(32, 'x').recipient }, sendAt: later() }));
  const other = await client.send({ ...request(33, 'client-cancel-other'), sendAt: later() });
  await client.cancelEvent('client-cancel-event-31');
  for (const { id } of event) await expect(client.get(id)).resolves.toMatchObject({ status: 'canceled' });
  await expect(client.get(other.id)).resolves.not.toMatchObject({ status: 'canceled' });
});

it('categories and preferences: put, get, list, delete; an opted-out channel is skipped at the next step', async () => {
  await expect(client.categories.put('client-news', { name: 'News', required: false })).resolves.toMatchObject({ id: 'client-news', required: false });
  await expect(client.categories.get('client-news')).resolves.toMatchObject({ name: 'News' });
  expect((await client.categories.list()).categories.map((c) => c.id)).toContain('client-news');
  const recipient = request(40, 'client-prefs').recipient;
  await client.recipients.put(recipient.id, { addresses: { push: 'tok-client-40', sms: '+905550000040' }, preferences: ['push', 'sms'] });
  await expect(client.recipients.preferences.put(recipient.id, { categories: { 'client-news': { push: false } } })).resolves.toMatchObject({
    id: recipient.id,
  });
  await expect(client.recipients.preferences.get(recipient.id)).resolves.toMatchObject({ categories: { 'client-news': { push: false } } });
  const accepted = await client.send({ ...request(40, 'client-prefs'), recipient: { id: recipient.id }, category: 'client-news' });
  const ended = await client.waitForTerminal(accepted.id, { intervalMs: 100 });
  expect(ended).toMatchObject({ status: 'delivered', deliveredChannel: 'sms' });
  expect(ended.skips).toEqual([expect.objectContaining({ channel: 'push', reason: 'opted-out' })]);
  await expect(client.categories.delete('client-news')).resolves.toBeUndefined();
  await expect(client.categories.get('client-news')).rejects.toMatchObject({ code: 'NOT_FOUND' });
});

it('suppressions: add, list (paged, by channel), remove; the opted-out skip is found by skipReason', async () => {
  await expect(client.suppressions.add({ recipientId: 'client-sup-1', channel: 'email', reason: 'manual' })).resolves.toMatchObject({ reason: 'manual' });
  await client.suppressions.add({ recipientId: 'client-sup-2', channel: 'email', reason: 'bounce', ttlSeconds: 600 });
  const listed: string[] = [];
  for await (const s of client.suppressions.list({ channel: 'email', limit: 1 })) listed.push(s.recipientId ?? '');
  expect(listed).toEqual(expect.arrayContaining(['client-sup-1', 'client-sup-2']));
  await expect(client.suppressions.remove('client-sup-1', 'email')).resolves.toBeUndefined();
  await expect(client.suppressions.remove('client-sup-1', 'email')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  // The opted-out notification of the test above, once archived.
  const skipped = await waitFor(
    'the opted-out notification in the history',
    async () => {
      const found: string[] = [];
      for await (const n of client.list({ skipReason: 'opted-out' })) found.push(n.eventId);
      return found.length > 0 ? found : undefined;
    },
    30_000,
    200,
  );
  expect(skipped).toEqual(['client-prefs-40']);
});
