import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import request from 'supertest';
import { SecretBox, WebhookRegistry, webhookEndpointKey, type SecretKey } from '@notify/webhooks';
import { startPrivateRedis, type PrivateRedis } from '@notify/platform-kit';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';

/**
 * Webhook signing secrets at rest: sealed (AES-256-GCM) under the first WEBHOOK_SECRET_KEYS key,
 * opened by any listed key, resealed under the current key when read (rotation), and a secret
 * stored plain before encryption still reads (then is sealed). Redis never holds one in clear.
 */
let redis: PrivateRedis;
let client: Redis;
let platform: TestPlatform | undefined;
const key = (id: string): SecretKey => ({ id, key: randomBytes(32) });
const k1 = key('k1');
const k2 = key('k2');
const INPUT = { url: 'https://93.184.215.14/hook', events: ['notification.delivered' as const] };

beforeAll(async () => {
  redis = await startPrivateRedis();
  client = new Redis(redis.url);
});
afterAll(async () => {
  await platform?.stop();
  client?.disconnect();
  await redis?.stop();
});

const stored = async (id: string) => client.hmget(webhookEndpointKey(id), 'secret', 'previousSecret');

it('seals the secrets written under the first key; Redis holds no secret in clear; any listed key opens them', async () => {
  const registry = new WebhookRegistry(client, Date.now, new SecretBox([k1]));
  const created = await registry.create('tenant-a', INPUT, 10);
  if (created === 'limit') throw new Error('limit');
  const { endpoint } = created;
  const [secret] = await stored(endpoint.id);
  expect(secret).toMatch(/^enc1:k1:/);
  expect(JSON.stringify(await client.hgetall(webhookEndpointKey(endpoint.id)))).not.toContain(endpoint.secret.slice(6));
  expect((await registry.load(endpoint.id))?.secret).toBe(endpoint.secret);

  const rotated = await registry.rotate('tenant-a', endpoint.id, 60_000);
  const [current, previous] = await stored(endpoint.id);
  expect([current, previous]).toEqual([expect.stringMatching(/^enc1:k1:/), expect.stringMatching(/^enc1:k1:/)]);
  const loaded = await registry.load(endpoint.id);
  expect([loaded?.secret, loaded?.previousSecret]).toEqual([rotated?.secret, endpoint.secret]);

  // Sealed for one endpoint, it does not open on another.
  const other = await registry.create('tenant-a', INPUT, 10);
  if (other === 'limit') throw new Error('limit');
  await client.hset(webhookEndpointKey(other.endpoint.id), 'secret', current as string);
  await expect(registry.load(other.endpoint.id)).rejects.toThrow();
});

it('rotates the key: a new first key seals, the old one still opens, and a read reseals under the new key so the old one can go', async () => {
  const before = new WebhookRegistry(client, Date.now, new SecretBox([k1]));
  const created = await before.create('tenant-b', INPUT, 10);
  if (created === 'limit') throw new Error('limit');
  const id = created.endpoint.id;
  const during = new WebhookRegistry(client, Date.now, new SecretBox([k2, k1]));
  expect((await during.load(id))?.secret).toBe(created.endpoint.secret);
  expect((await stored(id))[0]).toMatch(/^enc1:k2:/);
  const after = new WebhookRegistry(client, Date.now, new SecretBox([k2]));
  expect((await after.load(id))?.secret).toBe(created.endpoint.secret);
  // Without the key a secret was sealed under, it does not open (and says which key is missing).
  await expect(new WebhookRegistry(client, Date.now, new SecretBox([k1])).load(id)).rejects.toThrow(/k2/);
});

it('reads a secret stored plain before encryption was configured, and seals it', async () => {
  const plain = new WebhookRegistry(client);
  const created = await plain.create('tenant-c', INPUT, 10);
  if (created === 'limit') throw new Error('limit');
  const id = created.endpoint.id;
  expect((await stored(id))[0]).toBe(created.endpoint.secret);
  const sealed = new WebhookRegistry(client, Date.now, new SecretBox([k1]));
  expect((await sealed.load(id))?.secret).toBe(created.endpoint.secret);
  expect((await stored(id))[0]).toMatch(/^enc1:k1:/);
});

it('the api seals what POST /v1/webhooks creates when WEBHOOK_SECRET_KEYS is set', async () => {
  platform = await startTestPlatform({ env: { WEBHOOK_SECRET_KEYS: `main:${randomBytes(32).toString('base64')}` } });
  const res = await request(platform.api.url).post('/v1/webhooks').set('authorization', `Bearer ${TEST_API_KEY}`).send(INPUT);
  expect(res.status).toBe(201);
  const own = new Redis(platform.redis.url);
  try {
    const fields = await own.hgetall(webhookEndpointKey(res.body.id as string));
    expect(fields.secret).toMatch(/^enc1:main:/);
    expect(JSON.stringify(fields)).not.toContain((res.body.secret as string).slice(6));
  } finally {
    own.disconnect();
  }
});
