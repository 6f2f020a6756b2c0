import request from 'supertest';
import { startTestPlatform, OTHER_TENANT_KEY, TEST_API_KEY, type TestPlatform } from '../harness/platform';

/**
 * /v1/webhooks on the real api (Redis from the harness): registration with its secret shown
 * once, tenant scoping (another tenant's endpoint is a 404), the limits, and bad input on every
 * route answered 400 naming the field, including the SSRF refusals at registration.
 */
let platform: TestPlatform;
const MAX = 5;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:9,[::1]:9', WEBHOOK_MAX_ENDPOINTS: String(MAX) } });
});
afterAll(async () => {
  await platform?.stop();
});

const api = (key = TEST_API_KEY) => ({
  post: (path: string, body?: unknown) => {
    const r = request(platform.api.url).post(path).set('authorization', `Bearer ${key}`);
    return body === undefined ? r : r.send(body as object);
  },
  get: (path: string) => request(platform.api.url).get(path).set('authorization', `Bearer ${key}`),
  delete: (path: string) => request(platform.api.url).delete(path).set('authorization', `Bearer ${key}`),
});
const fields = (body: { error?: { details?: { field: string }[] } }) => [...new Set((body.error?.details ?? []).map((d) => d.field))];
const PUBLIC_URL = 'https://93.184.215.14/hooks/notify';

it('registers an endpoint (secret once, whsec_ + 24 bytes), lists and reads it without the secret, deletes it; another tenant sees 404 everywhere', async () => {
  const created = await api().post('/v1/webhooks', { url: PUBLIC_URL, events: ['notification.delivered', 'attempt.failed'], description: 'orders' });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ url: PUBLIC_URL, events: ['notification.delivered', 'attempt.failed'], description: 'orders', disabled: false });
  expect(created.body.secret).toMatch(/^whsec_/);
  expect(Buffer.from((created.body.secret as string).slice(6), 'base64')).toHaveLength(24);
  const id = created.body.id as string;
  expect(created.headers.location).toBe(`/v1/webhooks/${id}`);

  const read = await api().get(`/v1/webhooks/${id}`);
  expect(read.status).toBe(200);
  expect(read.body).not.toHaveProperty('secret');
  const list = await api().get('/v1/webhooks');
  expect(list.body.items.map((e: { id: string }) => e.id)).toContain(id);
  expect(JSON.stringify(list.body)).not.toContain('whsec_');

  const other = api(OTHER_TENANT_KEY);
  expect((await other.get(`/v1/webhooks/${id}`)).status).toBe(404);
  expect((await other.get(`/v1/webhooks/${id}/deliveries`)).status).toBe(404);
  expect((await other.post(`/v1/webhooks/${id}/rotate-secret`)).status).toBe(404);
  expect((await other.post(`/v1/webhooks/${id}/deliveries/evt_x/retry`)).status).toBe(404);
  expect((await other.delete(`/v1/webhooks/${id}`)).status).toBe(404);
  expect((await other.get('/v1/webhooks')).body.items).toEqual([]);

  const rotated = await api().post(`/v1/webhooks/${id}/rotate-secret`);
  expect(rotated.status).toBe(200);
  expect(rotated.body.secret).toMatch(/^whsec_/);
  expect(rotated.body.secret).not.toBe(created.body.secret);
  expect(rotated.body.previousSecretExpiresAt).toBeGreaterThan(Date.now() + 23 * 3_600_000);

  expect((await api().get(`/v1/webhooks/${id}/deliveries`)).body).toEqual({ items: [] });
  expect((await api().post(`/v1/webhooks/${id}/deliveries/evt_unknown/retry`)).status).toBe(404);
  expect((await api().delete(`/v1/webhooks/${id}`)).status).toBe(204);
  expect((await api().get(`/v1/webhooks/${id}`)).status).toBe(404);
  expect((await api().delete(`/v1/webhooks/${id}`)).status).toBe(404);
});

it('refuses private, loopback, link-local, metadata and non-http URLs at registration: 400 naming url', async () => {
  const refused = [
    'http://10.0.0.1/hook',
    'http://172.16.5.5/hook',
    'http://192.168.1.1/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[fd00:ec2::254]/',
    'http://localhost:8080/hook',
    'http://127.0.0.2/hook',
    'http://2130706434/hook', // 127.0.0.2 in decimal (the URL parser normalises it)
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://224.0.0.1/',
    'http://[::ffff:10.0.0.1]/',
    // IPv4-compatible IPv6 (::/96): loopback and the metadata address in another spelling.
    'http://[::127.0.0.1]:8080/',
    'http://[::a9fe:a9fe]/',
    'http://[::8.8.8.8]/',
    // An allow-list entry with a port allows that port only.
    'http://127.0.0.1:10/hook',
    'http://127.0.0.1/hook',
    'http://[::1]:8080/',
    'ftp://93.184.215.14/hook',
    'file:///etc/passwd',
    'https://user:pass@93.184.215.14/hook',
    'not a url',
    `https://93.184.215.14/${'a'.repeat(2_100)}`,
  ];
  for (const url of refused) {
    const res = await api().post('/v1/webhooks', { url, events: ['notification.failed'] });
    expect({ url, status: res.status, fields: fields(res.body) }).toEqual({ url, status: 400, fields: ['url'] });
  }
  // The allow-list (WEBHOOK_ALLOWED_HOSTS=127.0.0.1:9,[::1]:9) lets a loopback receiver in, by that host and port only.
  for (const url of ['http://127.0.0.1:9/hook', 'http://[::1]:9/hook']) {
    const allowed = await api().post('/v1/webhooks', { url, events: ['notification.failed'] });
    expect({ url, status: allowed.status }).toEqual({ url, status: 201 });
    expect((await api().delete(`/v1/webhooks/${allowed.body.id}`)).status).toBe(204);
  }
});

it('bad input on every route is a 400 naming the field (bounded fuzz of the body), and the endpoint limit holds', async () => {
  const cases: [unknown, string][] = [
    [{ events: ['notification.failed'] }, 'url'],
    [{ url: PUBLIC_URL }, 'events'],
    [{ url: PUBLIC_URL, events: [] }, 'events'],
    [{ url: PUBLIC_URL, events: ['notification.sent'] }, 'events.0'],
    [{ url: PUBLIC_URL, events: ['attempt.failed', 'attempt.failed'] }, 'events'],
    [{ url: PUBLIC_URL, events: 'notification.failed' }, 'events'],
    [{ url: 42, events: ['notification.failed'] }, 'url'],
    [{ url: PUBLIC_URL, events: ['notification.failed'], description: 'x'.repeat(501) }, 'description'],
    [{ url: PUBLIC_URL, events: ['notification.failed'], secret: 'whsec_mine' }, '(body)'],
  ];
  for (const [body, field] of cases) {
    const res = await api().post('/v1/webhooks', body);
    expect({ body, status: res.status, fields: fields(res.body) }).toEqual({ body, status: 400, fields: [field] });
  }
  for (const path of ['/v1/webhooks/nope', '/v1/webhooks/ep_XYZ/deliveries']) expect(fields((await api().get(path)).body)).toEqual(['id']);
  expect(fields((await api().post('/v1/webhooks/ep_1/rotate-secret')).body)).toEqual(['id']);
  expect(fields((await api().delete('/v1/webhooks/ep_1')).body)).toEqual(['id']);

  // Random bodies: every answer is a 201 or a 400 whose details name a field of the body.
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const values = [
    null,
    0,
    -1,
    1.5,
    true,
    '',
    ' ',
    'x'.repeat(3000),
    [],
    {},
    PUBLIC_URL,
    'http://10.1.2.3/',
    'javascript:alert(1)',
    ['notification.failed'],
    ['*'],
  ];
  const created: string[] = [];
  for (let i = 0; i < 150; i += 1) {
    const body: Record<string, unknown> = {};
    for (const key of ['url', 'events', 'description', 'extra']) if (random() < 0.7) body[key] = pick(values);
    const res = await api().post('/v1/webhooks', body);
    if (res.status === 201) {
      created.push(res.body.id as string);
      await api().delete(`/v1/webhooks/${res.body.id}`);
      continue;
    }
    expect({ body, status: res.status }).toEqual({ body, status: 400 });
    for (const field of fields(res.body)) expect(['url', 'events', 'description', '(body)']).toContain(field.split('.')[0]);
    expect(fields(res.body).length).toBeGreaterThan(0);
  }

  const ids: string[] = [];
  for (let i = 0; i < MAX; i += 1) {
    const res = await api().post('/v1/webhooks', { url: `${PUBLIC_URL}/${i}`, events: ['notification.failed'] });
    expect(res.status).toBe(201);
    ids.push(res.body.id as string);
  }
  const over = await api().post('/v1/webhooks', { url: PUBLIC_URL, events: ['notification.failed'] });
  expect({ status: over.status, fields: fields(over.body) }).toEqual({ status: 400, fields: ['url'] });
  for (const id of ids) await api().delete(`/v1/webhooks/${id}`);
});
