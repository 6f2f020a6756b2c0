import { recipientHash, signUnsubscribeToken } from '@notify/core';
import { waitFor } from '@notify/platform-kit';
import { DEV_UNSUBSCRIBE_SECRET } from '@notify/runtime';
import { buildOpenApiDocument, NAMED_SCHEMAS, type SchemaName } from '../../apps/api/src/openapi';
import { DEV_DEFAULTS } from '@notify/runtime';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';

/**
 * The document tells the truth: the platform's real answers, for every documented route, have
 * a status the document lists for that operation and a body its schema accepts (response
 * objects are strict, so an undocumented field fails here).
 */
type Response = { $ref?: string; content?: Record<string, { schema?: { $ref?: string } }> };
const doc = buildOpenApiDocument() as {
  paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
  components: { responses: Record<string, Response> };
};
/** A response object, or the shared one (`components.responses`) it refers to. */
const resolved = (response: Response | undefined) =>
  response?.$ref ? doc.components.responses[response.$ref.replace('#/components/responses/', '')] : response;

let platform: TestPlatform;
const seen = new Set<string>();

beforeAll(async () => {
  platform = await startTestPlatform();
});

afterAll(async () => {
  await platform?.stop();
});

/** Sends the request and checks the answer against the operation `method path` of the document. */
async function call(method: string, path: string, url: string, init: { body?: unknown; form?: string; key?: string | null; accept?: string } = {}) {
  const key = init.key === undefined ? TEST_API_KEY : init.key;
  const res = await fetch(`${platform.api.url}${url}`, {
    method: method.toUpperCase(),
    redirect: 'manual',
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.form !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...(init.accept ? { accept: init.accept } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : init.form !== undefined ? { body: init.form } : {}),
  });
  const text = await res.text();
  const operation = doc.paths[path]?.[method];
  if (!operation) throw new Error(`${method} ${path} is not in the document`);
  const documented = resolved(operation.responses[String(res.status)]);
  if (!documented) throw new Error(`${method} ${path} answered ${res.status}, which the document does not list: ${text}`);
  const ref = documented.content?.['application/json']?.schema?.$ref;
  if (ref) {
    const name = ref.replace('#/components/schemas/', '') as SchemaName;
    const parsed = NAMED_SCHEMAS[name].safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${method} ${path} ${res.status}: the body does not match ${name}: ${parsed.error.message}\n${text}`);
  }
  seen.add(`${method} ${path}`);
  const json = (res.headers.get('content-type') ?? '').includes('json');
  return { status: res.status, body: json && text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

const notification = (eventId: string, body = 'Siparişiniz kargoya verildi.') => ({
  eventId,
  priority: 'urgent',
  recipient: { id: `user-${eventId}`, addresses: { push: 'tok-7', sms: '+905551112233', email: 'u7@example.com' }, preferences: ['push', 'sms', 'email'] },
  content: { title: 'Kargonuz yolda', body },
});

it('intake answers what the document says: accepted, duplicate, conflict, invalid, unauthorized, batch', async () => {
  const eventId = `openapi-${Date.now()}`;
  expect((await call('post', '/v1/notifications', '/v1/notifications', { body: notification(eventId) })).status).toBe(202);
  expect((await call('post', '/v1/notifications', '/v1/notifications', { body: notification(eventId) })).status).toBe(200);
  expect((await call('post', '/v1/notifications', '/v1/notifications', { body: notification(eventId, 'changed') })).status).toBe(422);
  expect((await call('post', '/v1/notifications', '/v1/notifications', { body: { eventId } })).status).toBe(400);
  expect((await call('post', '/v1/notifications', '/v1/notifications', { body: notification(eventId), key: null })).status).toBe(401);
  const batch = await call('post', '/v1/notifications/batch', '/v1/notifications/batch', {
    body: { notifications: [notification(`${eventId}-b`), { eventId: 'x' }] },
  });
  expect(batch.body).toMatchObject({ accepted: 1, rejected: 1 });
});

it("a notification's status view matches the document from acceptance to its terminal state", async () => {
  const accepted = await call('post', '/v1/notifications', '/v1/notifications', { body: notification(`openapi-view-${Date.now()}`) });
  const id = accepted.body!.id as string;
  const terminal = await waitFor(
    'a terminal status',
    async () => {
      const view = await call('get', '/v1/notifications/{id}', `/v1/notifications/${id}`);
      return ['delivered', 'failed', 'unconfirmed'].includes(view.body!.status as string) ? view : undefined;
    },
    30_000,
  );
  expect((terminal.body!.attempts as unknown[]).length).toBeGreaterThanOrEqual(1);
  expect((await call('get', '/v1/notifications/{id}', `/v1/notifications/${'0'.repeat(32)}`)).status).toBe(404);
  expect((await call('get', '/v1/notifications/{id}', '/v1/notifications/not-an-id')).status).toBe(400);
  // The test platform runs without the history (HISTORY_ENABLED unset outside production): the
  // lists answer 503 in the error shape, bad input 400 (test/history/api.test.ts reads a real one).
  expect((await call('get', '/v1/notifications', '/v1/notifications?status=failed')).status).toBe(503);
  expect((await call('get', '/v1/notifications', '/v1/notifications?limit=0')).status).toBe(400);
  expect((await call('get', '/v1/recipients/{id}/notifications', '/v1/recipients/r-1/notifications')).status).toBe(503);
  expect((await call('get', '/v1/recipients/{id}/notifications', '/v1/recipients/r-1/notifications?tenant=b')).status).toBe(400);
});

it('cancel answers what the document says: canceled, not cancelable, unknown, by event', async () => {
  const eventId = `openapi-cancel-${Date.now()}`;
  const id = (await call('post', '/v1/notifications', '/v1/notifications', { body: { ...notification(eventId), ttlSeconds: 600 } })).body!.id as string;
  const first = await call('delete', '/v1/notifications/{id}', `/v1/notifications/${id}`);
  // Accepted a moment ago: canceled, unless a call is in flight already (409 sending) or it was delivered.
  expect([200, 409]).toContain(first.status);
  await waitFor(
    'a terminal status',
    async () => ['delivered', 'canceled', 'failed'].includes((await call('get', '/v1/notifications/{id}', `/v1/notifications/${id}`)).body!.status as string),
    30_000,
  );
  const view = await call('get', '/v1/notifications/{id}', `/v1/notifications/${id}`);
  expect(view.body!.expiresAt).toEqual(expect.any(Number));
  expect([200, 409]).toContain((await call('delete', '/v1/notifications/{id}', `/v1/notifications/${id}`)).status);
  expect((await call('delete', '/v1/notifications/{id}', `/v1/notifications/${'0'.repeat(32)}`)).status).toBe(404);
  expect((await call('delete', '/v1/notifications/{id}', '/v1/notifications/not-an-id')).status).toBe(400);
  expect((await call('delete', '/v1/notifications', `/v1/notifications?eventId=${eventId}`)).body).toMatchObject({ eventId, notFound: 0 });
  expect((await call('delete', '/v1/notifications', '/v1/notifications')).status).toBe(400);
});

it('recipients, tracking, admin and health answer what the document says', async () => {
  const profile = { addresses: { sms: '+905551112233' }, preferences: ['sms'] };
  expect((await call('put', '/v1/recipients/{id}', '/v1/recipients/r-openapi', { body: profile })).status).toBe(201);
  expect((await call('put', '/v1/recipients/{id}', '/v1/recipients/r-openapi', { body: profile })).status).toBe(200);
  expect((await call('get', '/v1/recipients/{id}', '/v1/recipients/r-openapi')).body).toMatchObject({ id: 'r-openapi', ...profile });
  expect((await call('delete', '/v1/recipients/{id}', '/v1/recipients/r-openapi')).status).toBe(204);
  expect((await call('get', '/v1/recipients/{id}', '/v1/recipients/r-openapi')).status).toBe(404);
  expect((await call('delete', '/v1/recipients/{id}', '/v1/recipients/r-openapi')).status).toBe(404);

  // The stores play the seed's latency cycle (one long tail in 17): a 504 is a documented
  // answer too; every answer is checked, until one is a 200.
  let n = 0;
  await waitFor(
    'a 200 tracking answer',
    async () => (await call('get', '/v1/tracking/{shipmentId}', `/v1/tracking/SHP-openapi-${(n += 1)}`)).status === 200,
    30_000,
  );
  expect((await call('get', '/v1/tracking/{shipmentId}', '/v1/tracking/!')).status).toBe(400);

  expect((await call('get', '/admin/queues', '/admin/queues', { key: TEST_API_KEY })).status).toBe(403);
  expect((await call('get', '/admin/queues', '/admin/queues', { key: null, accept: 'text/html' })).status).toBe(303);
  expect((await call('get', '/admin/login', '/admin/login', { key: null })).status).toBe(200);
  const admin = { key: DEV_DEFAULTS.adminApiKey };
  expect((await call('get', '/admin/notifications', '/admin/notifications', { key: TEST_API_KEY })).status).toBe(403);
  expect((await call('get', '/admin/notifications', '/admin/notifications', { key: null, accept: 'text/html' })).status).toBe(303);
  expect((await call('get', '/admin/notifications', '/admin/notifications?tenant=tenant-a&status=delivered', admin)).status).toBe(503);
  expect((await call('get', '/admin/notifications', '/admin/notifications?tenant=tenant-a&since=yesterday', admin)).status).toBe(400);
  expect((await call('get', '/admin/notifications', '/admin/notifications', admin)).status).toBe(200);
  expect((await call('get', '/admin/notifications/{id}', `/admin/notifications/${'0'.repeat(32)}`, admin)).status).toBe(404);
  expect((await call('post', '/admin/login', '/admin/login', { key: null, form: 'key=wrong&csrf=none' })).status).toBe(403);
  expect((await call('get', '/admin/logout', '/admin/logout', { key: null })).status).toBe(303);
  expect((await call('post', '/admin/logout', '/admin/logout', { key: null, form: '' })).status).toBe(303);
  expect((await call('get', '/healthz', '/healthz', { key: null })).status).toBe(200);
  expect((await call('get', '/readyz', '/readyz', { key: null })).status).toBe(200);
});

it('webhooks answer what the document says', async () => {
  const created = await call('post', '/v1/webhooks', '/v1/webhooks', { body: { url: 'https://93.184.215.14/hook', events: ['notification.delivered'] } });
  expect(created.status).toBe(201);
  const id = created.body!.id as string;
  expect((await call('post', '/v1/webhooks', '/v1/webhooks', { body: { url: 'http://10.0.0.1/hook', events: ['notification.delivered'] } })).status).toBe(400);
  expect((await call('get', '/v1/webhooks', '/v1/webhooks')).status).toBe(200);
  expect((await call('get', '/v1/webhooks/{id}', `/v1/webhooks/${id}`)).status).toBe(200);
  expect((await call('get', '/v1/webhooks/{id}', '/v1/webhooks/nope')).status).toBe(400);
  expect((await call('post', '/v1/webhooks/{id}/rotate-secret', `/v1/webhooks/${id}/rotate-secret`)).status).toBe(200);
  expect((await call('get', '/v1/webhooks/{id}/deliveries', `/v1/webhooks/${id}/deliveries`)).status).toBe(200);
  expect((await call('post', '/v1/webhooks/{id}/deliveries/{eventId}/retry', `/v1/webhooks/${id}/deliveries/evt_none/retry`)).status).toBe(404);
  expect((await call('delete', '/v1/webhooks/{id}', `/v1/webhooks/${id}`)).status).toBe(204);
  expect((await call('get', '/v1/webhooks/{id}', `/v1/webhooks/${id}`)).status).toBe(404);
});

it('provider events and the suppression lift answer what the document says', async () => {
  // The test platform configures no PROVIDER_EVENT_SECRETS: every provider is unknown (test/receipts covers the rest).
  const event = { eventId: 'e-1', type: 'delivered', providerMessageId: 'm-1' };
  expect((await call('post', '/v1/providers/{provider}/events', '/v1/providers/email/events', { body: event, key: 'some-secret-0000000000' })).status).toBe(
    404,
  );
  expect((await call('delete', '/v1/recipients/{id}/suppressions/{channel}', '/v1/recipients/r-1/suppressions/email')).status).toBe(404);
  expect((await call('delete', '/v1/recipients/{id}/suppressions/{channel}', '/v1/recipients/r-1/suppressions/fax')).status).toBe(400);
});

it('the suppression list answers what the document says', async () => {
  const body = { recipientId: 'r-listed', channel: 'email', reason: 'manual' };
  expect((await call('post', '/v1/suppressions', '/v1/suppressions', { body })).status).toBe(201);
  expect((await call('post', '/v1/suppressions', '/v1/suppressions', { body: { ...body, ttlSeconds: 60 } })).status).toBe(200);
  expect((await call('post', '/v1/suppressions', '/v1/suppressions', { body: { ...body, reason: 'bored' } })).status).toBe(400);
  expect((await call('get', '/v1/suppressions', '/v1/suppressions?limit=1')).body?.items).toEqual([expect.objectContaining({ recipientId: 'r-listed' })]);
  expect((await call('get', '/v1/suppressions', '/v1/suppressions?cursor=x')).status).toBe(400);
  expect((await call('delete', '/v1/suppressions/{recipientId}/{channel}', '/v1/suppressions/r-listed/email')).status).toBe(204);
  expect((await call('delete', '/v1/suppressions/{recipientId}/{channel}', '/v1/suppressions/r-listed/email')).status).toBe(404);
  expect((await call('delete', '/v1/suppressions/{recipientId}/{channel}', '/v1/suppressions/r-listed/fax')).status).toBe(400);
});

it('categories, preferences and the unsubscribe links answer what the document says', async () => {
  expect((await call('put', '/v1/categories/{id}', '/v1/categories/campaigns', { body: { name: 'Campaigns' } })).status).toBe(201);
  expect((await call('put', '/v1/categories/{id}', '/v1/categories/campaigns', { body: { name: 'Campaigns', channels: ['email'] } })).status).toBe(200);
  expect((await call('put', '/v1/categories/{id}', '/v1/categories/campaigns', { body: { name: '' } })).status).toBe(400);
  expect((await call('get', '/v1/categories', '/v1/categories')).status).toBe(200);
  expect((await call('get', '/v1/categories/{id}', '/v1/categories/campaigns')).status).toBe(200);
  expect((await call('get', '/v1/categories/{id}', '/v1/categories/none')).status).toBe(404);
  const preferences = { channels: { sms: false }, categories: { campaigns: { email: false } } };
  expect((await call('put', '/v1/recipients/{id}/preferences', '/v1/recipients/r-prefs/preferences', { body: preferences })).status).toBe(200);
  expect((await call('put', '/v1/recipients/{id}/preferences', '/v1/recipients/r-prefs/preferences', { body: { channels: { fax: true } } })).status).toBe(400);
  expect((await call('get', '/v1/recipients/{id}/preferences', '/v1/recipients/r-prefs/preferences')).body).toMatchObject(preferences);
  expect((await call('get', '/v1/recipients/{id}/preferences', '/v1/recipients/r-none/preferences')).status).toBe(404);
  const token = signUnsubscribeToken(
    { tenant: 'tenant-a', rh: recipientHash('tenant-a', 'r-prefs'), category: 'campaigns', channel: 'email', expiresAt: Math.floor(Date.now() / 1000) + 60 },
    [DEV_UNSUBSCRIBE_SECRET],
  );
  expect((await call('get', '/u/{token}', `/u/${token}`, { key: null })).status).toBe(200);
  expect((await call('post', '/u/{token}', `/u/${token}`, { key: null, form: 'List-Unsubscribe=One-Click' })).status).toBe(200);
  expect((await call('post', '/u/{token}', `/u/${token}x`, { key: null, form: 'List-Unsubscribe=One-Click' })).status).toBe(400);
  expect((await call('delete', '/v1/categories/{id}', '/v1/categories/campaigns')).status).toBe(204);
});

it('exercised every documented API operation (the docs pages aside)', () => {
  const operations = Object.entries(doc.paths)
    .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`))
    .filter((op) => !['get /openapi.json', 'get /docs'].includes(op));
  expect(operations.filter((op) => !seen.has(op))).toEqual([]);
});
