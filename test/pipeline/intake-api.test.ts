import request from 'supertest';
import { OTHER_TENANT_KEY, startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { waitFor } from '@notify/platform-kit';
import { notificationFor } from '../fixtures/notifications';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform?.stop();
});

const auth = (key = TEST_API_KEY) => ({ authorization: `Bearer ${key}` });
const post = (body: unknown, key = TEST_API_KEY) =>
  request(platform.api.url)
    .post('/v1/notifications')
    .set(auth(key))
    .send(body as object);

async function ledger(): Promise<{ deliveries: number; duplicateKeys: string[]; calls: Record<string, number> }> {
  const res = await fetch(`${platform.sims.controlUrl}/ledger`);
  return (await res.json()) as { deliveries: number; duplicateKeys: string[]; calls: Record<string, number> };
}

describe('authentication', () => {
  it('refuses a missing or unknown key with 401', async () => {
    const missing = await request(platform.api.url).post('/v1/notifications').send({});
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('UNAUTHORIZED');
    const unknown = await post({}, 'not-a-real-key-000000000');
    expect(unknown.status).toBe(401);
  });
});

describe('validation', () => {
  it('answers 400 naming each bad field and the reason', async () => {
    const res = await post({ eventId: '', priority: 'soon', recipient: { id: 'r', addresses: { sms: '0555', email: 'nope' } }, content: { title: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    const fields = (res.body.error.details as { field: string }[]).map((d) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['eventId', 'priority', 'recipient.addresses.sms', 'recipient.addresses.email', 'content.body']));
  });

  it('answers 400 for malformed JSON and 415 for a non-JSON body', async () => {
    const bad = await request(platform.api.url).post('/v1/notifications').set(auth()).set('content-type', 'application/json').send('{"eventId":');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('MALFORMED_JSON');
    const text = await request(platform.api.url).post('/v1/notifications').set(auth()).set('content-type', 'text/plain').send('hello');
    expect(text.status).toBe(415);
  });

  it('refuses unknown fields rather than ignoring them', async () => {
    const res = await post({ ...notificationFor(1, 'push', { prefix: 'unknown-field' }), channel: 'sms' });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].reason).toMatch(/unrecognized|unknown/i);
  });

  it('answers 422 when the recipient has no address at all, or names an unknown stored recipient', async () => {
    const none = await post({ eventId: 'e-none', priority: 'urgent', recipient: { id: 'r', addresses: {} }, content: { title: 't', body: 'b' } });
    expect(none.status).toBe(422);
    expect(none.body.error.code).toBe('NO_DELIVERABLE_CHANNEL');
    const stored = await post({ eventId: 'e-stored', priority: 'urgent', recipient: { id: 'ghost' }, content: { title: 't', body: 'b' } });
    expect(stored.status).toBe(422);
    expect(stored.body.error.code).toBe('RECIPIENT_NOT_FOUND');
  });

  it('answers 404 with a JSON error for unknown routes and bad ids', async () => {
    expect((await request(platform.api.url).get('/v1/nope').set(auth())).status).toBe(404);
    const badId = await request(platform.api.url).get('/v1/notifications/xyz').set(auth());
    expect(badId.status).toBe(400);
    expect(badId.body.error.details[0].field).toBe('id');
  });
});

describe('idempotency on (tenant, event id, recipient id)', () => {
  it('returns the same id for a repeat (200, duplicate) and 422 for a changed payload', async () => {
    const body = notificationFor(10, 'email', { prefix: 'idem' });
    const first = await post(body);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ status: 'accepted', duplicate: false });
    expect(first.headers.location).toBe(`/v1/notifications/${first.body.id}`);
    const again = await post(body);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, duplicate: true });
    const changed = await post({ ...body, content: { title: 'Other', body: 'payload' } });
    expect(changed.status).toBe(422);
    expect(changed.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    // Same key, key order shuffled: still the same request.
    const shuffled = await post({ content: body.content, recipient: body.recipient, priority: body.priority, eventId: body.eventId });
    expect(shuffled.body.id).toBe(first.body.id);
  });

  it('50 concurrent POSTs of one event give one id and one delivery', async () => {
    const body = notificationFor(20, 'sms', { prefix: 'race', priority: 'urgent' });
    const responses = await Promise.all(Array.from({ length: 50 }, () => post(body)));
    const ids = new Set(responses.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    expect(responses.filter((r) => r.status === 202)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(49);
    const id = [...ids][0] as string;
    const view = await waitFor('terminal', async () => {
      const r = await request(platform.api.url).get(`/v1/notifications/${id}`).set(auth());
      return ['delivered', 'failed'].includes(r.body.status) ? r.body : undefined;
    });
    expect(view.status).toBe('delivered');
    const entry = (await (await fetch(`${platform.sims.controlUrl}/ledger/keys/notify-${id}`)).json()) as { deliveries: unknown[] };
    expect(entry.deliveries).toHaveLength(1);
  });

  it('isolates tenants: the same event id is a different notification, invisible to the other tenant', async () => {
    const body = notificationFor(30, 'push', { prefix: 'tenant' });
    const a = await post(body);
    const b = await post(body, OTHER_TENANT_KEY);
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(a.body.id).not.toBe(b.body.id);
    const cross = await request(platform.api.url).get(`/v1/notifications/${a.body.id}`).set(auth(OTHER_TENANT_KEY));
    expect(cross.status).toBe(404);
  });
});

describe('stored recipients', () => {
  it('stores a profile and uses it for notifications naming only the id', async () => {
    const put = await request(platform.api.url)
      .put('/v1/recipients/stored-1')
      .set(auth())
      .send({ addresses: { email: 'stored@example.com', sms: '+905551234567' }, preferences: ['email'] });
    expect(put.status).toBe(201);
    expect(
      (
        await request(platform.api.url)
          .put('/v1/recipients/stored-1')
          .set(auth())
          .send(put.body.addresses ? { addresses: put.body.addresses } : {})
      ).status,
    ).toBe(200);
    const got = await request(platform.api.url).get('/v1/recipients/stored-1').set(auth());
    expect(got.body.addresses.email).toBe('stored@example.com');
    expect((await request(platform.api.url).get('/v1/recipients/stored-1').set(auth(OTHER_TENANT_KEY))).status).toBe(404);

    const res = await post({
      eventId: 'stored-evt',
      priority: 'urgent',
      recipient: { id: 'stored-1', preferences: ['sms', 'email'] },
      content: { title: 't', body: 'b' },
    });
    expect(res.status).toBe(202);
    const view = await waitFor('terminal', async () => {
      const r = await request(platform.api.url).get(`/v1/notifications/${res.body.id}`).set(auth());
      return ['delivered', 'failed'].includes(r.body.status) ? r.body : undefined;
    });
    expect(view.plan).toEqual(['sms', 'email']);
    expect(view).not.toHaveProperty('addresses');

    const bad = await request(platform.api.url).put('/v1/recipients/stored-2').set(auth()).send({ addresses: {} });
    expect(bad.status).toBe(400);
    expect((await request(platform.api.url).delete('/v1/recipients/stored-1').set(auth())).status).toBe(204);
    expect((await request(platform.api.url).delete('/v1/recipients/stored-1').set(auth())).status).toBe(404);
  });
});

describe('batch intake', () => {
  it('answers per item, in order, accepting the good ones', async () => {
    const good = notificationFor(40, 'push', { prefix: 'batch' });
    const res = await request(platform.api.url)
      .post('/v1/notifications/batch')
      .set(auth())
      .send({ notifications: [good, { eventId: 'x' }, good, notificationFor(41, 'sms', { prefix: 'batch' })] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ accepted: 2, duplicates: 1, rejected: 1 });
    expect(res.body.results.map((r: { httpStatus: number }) => r.httpStatus)).toEqual([202, 400, 200, 202]);
    expect(res.body.results[1].error.details.map((d: { field: string }) => d.field)).toContain('notifications.1.priority');
    expect(res.body.results[0].id).toBe(res.body.results[2].id);
  });

  it('refuses an empty or oversized batch', async () => {
    const empty = await request(platform.api.url).post('/v1/notifications/batch').set(auth()).send({ notifications: [] });
    expect(empty.status).toBe(400);
    const big = await request(platform.api.url)
      .post('/v1/notifications/batch')
      .set(auth())
      .send({ notifications: Array.from({ length: 1_001 }, (_, i) => ({ eventId: String(i) })) });
    expect(big.status).toBe(400);
    expect(big.body.error.details[0].field).toBe('notifications');
  });
});

describe('status, metrics and health', () => {
  it('exposes intake and attempt metrics, health and readiness', async () => {
    const metrics = await request(platform.api.metricsUrl.replace(/\/metrics$/, '')).get('/metrics');
    expect((await request(platform.api.url).get('/metrics')).status).toBe(404); // not on the public port
    expect(metrics.text).toContain('notify_intake_requests_total{result="accepted"');
    expect((await request(platform.api.url).get('/healthz')).status).toBe(200);
    expect((await request(platform.api.url).get('/readyz')).body.status).toBe('ready');
    const workerMetrics = await (await fetch(platform.workers[0]!.metricsUrl)).text();
    expect(workerMetrics).toMatch(/notify_delivery_attempts_total\{channel="\w+",outcome="delivered"/);
    const summary = await ledger();
    expect(summary.duplicateKeys).toEqual([]);
  });

  it('serves bull-board at /admin/queues to the admin key only', async () => {
    expect((await request(platform.api.url).get('/admin/queues/api/queues')).status).toBe(401);
    expect((await request(platform.api.url).get('/admin/queues/api/queues').set(auth())).status).toBe(403);
    const board = await request(platform.api.url).get('/admin/queues/api/queues').set({ authorization: 'Bearer dev-admin-key-change-me' });
    expect(board.status).toBe(200);
    expect(JSON.stringify(board.body)).toContain('push-urgent');
  });
});
