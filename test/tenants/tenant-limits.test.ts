import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import request from 'supertest';
import { notificationId, notificationKey } from '@notify/core';
import { spawnAppOnFreePorts } from '../harness/app-process';
import { waitAllTerminal } from '../harness/notification-poll';
import { OTHER_TENANT_KEY, startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { notificationFor } from '../fixtures/notifications';

/**
 * Per-tenant intake limits against the real api and Redis. Each limited tenant has its own
 * key and its own limits, so the tests share one platform without sharing a bucket. The rates
 * refill one notification in ~17 minutes: what a test sees admitted is the bucket, never a
 * refill while it runs.
 */
const TENANTS = {
  rated: { limits: { rate: { perSecond: 0.001, burst: 3 } } },
  batched: { limits: { rate: { perSecond: 0.001, burst: 5 } } },
  quota: { limits: { dailyQuota: 4 } },
  'quota-twin': { limits: { dailyQuota: 4 } },
  shared: { limits: { dailyQuota: 10 } },
} as const;
type LimitedTenant = keyof typeof TENANTS;
const keyOf = (tenant: LimitedTenant) => `key-of-${tenant}-0000000000000000`.slice(0, 32);

let platform: TestPlatform;
let redis: Redis;

beforeAll(async () => {
  const tenantsFile = join(mkdtempSync(join(tmpdir(), 'tenants-')), 'tenants.json');
  writeFileSync(tenantsFile, JSON.stringify(TENANTS));
  const limited = Object.keys(TENANTS).map((t) => `${keyOf(t as LimitedTenant)}:${t}`);
  platform = await startTestPlatform({
    env: { TENANTS_FILE: tenantsFile, API_KEYS: [`${TEST_API_KEY}:tenant-a`, `${OTHER_TENANT_KEY}:tenant-b`, ...limited].join(',') },
  });
  redis = new Redis(platform.redis.url);
});
afterAll(async () => {
  redis?.disconnect();
  await platform?.stop();
});

const post = (url: string, key: string, body: object | undefined) => request(url).post('/v1/notifications').set('authorization', `Bearer ${key}`).send(body);
const postBatch = (key: string, notifications: unknown[]) =>
  request(platform.api.url).post('/v1/notifications/batch').set('authorization', `Bearer ${key}`).send({ notifications });
const recordExists = async (tenant: string, body: ReturnType<typeof notificationFor>) =>
  (await redis.exists(notificationKey(notificationId(tenant, body.eventId, body.recipient.id)))) === 1;

/** The seconds until the next UTC midnight, by this machine's clock (Redis's is the same clock here). */
const secondsToUtcMidnight = (now: number) => Math.ceil((Math.floor(now / 86_400_000 + 1) * 86_400_000 - now) / 1000);

it('over the rate: 429 RATE_LIMITED with Retry-After and the RateLimit headers; a repeat of an accepted one is its duplicate', async () => {
  const bodies = [0, 1, 2, 3].map((i) => notificationFor(i, 'push', { prefix: 'rated', priority: 'urgent' }));
  for (const [i, body] of bodies.slice(0, 3).entries()) {
    const res = await post(platform.api.url, keyOf('rated'), body);
    expect(res.status).toBe(202);
    expect(res.headers['ratelimit-policy']).toBe('"rate";q=3;w=3000');
    expect(res.headers.ratelimit).toMatch(new RegExp(`^"rate";r=${2 - i};t=\\d+$`));
  }
  const refused = await post(platform.api.url, keyOf('rated'), bodies[3]);
  expect(refused.status).toBe(429);
  expect(refused.body.error.code).toBe('RATE_LIMITED');
  expect(refused.headers['ratelimit-policy']).toBe('"rate";q=3;w=3000');
  const [, reset] = /^"rate";r=0;t=(\d+)$/.exec(refused.headers.ratelimit as string) ?? [];
  expect(Number(refused.headers['retry-after'])).toBe(Math.max(1, Number(reset)));
  expect(await recordExists('rated', bodies[3]!)).toBe(false);

  // The same event and recipient again: answered as the duplicate it is, not refused.
  const repeat = await post(platform.api.url, keyOf('rated'), bodies[0]);
  expect(repeat.status).toBe(200);
  expect(repeat.body).toMatchObject({ duplicate: true, id: notificationId('rated', bodies[0]!.eventId, bodies[0]!.recipient.id) });

  // A tenant without limits: no refusal, no RateLimit headers.
  const free = await post(platform.api.url, TEST_API_KEY, notificationFor(0, 'push', { prefix: 'rated-free' }));
  expect(free.status).toBe(202);
  expect(free.headers.ratelimit).toBeUndefined();
  expect(free.headers['ratelimit-policy']).toBeUndefined();
});

it('a batch is accepted up to the limit, per item, every accepted one delivered; its repeat refuses no accepted one', async () => {
  const valid = [0, 1, 2, 3, 4, 5, 6].map((i) => notificationFor(i, 'push', { prefix: 'batched', priority: 'urgent' }));
  // Item 2 is invalid: it takes no unit, so the bucket of 5 admits the first five valid items.
  const items: unknown[] = [valid[0], valid[1], { eventId: 'x' }, ...valid.slice(2)];
  const res = await postBatch(keyOf('batched'), items);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ accepted: 5, duplicates: 0, rejected: 3 });
  expect(res.headers['ratelimit-policy']).toBe('"rate";q=5;w=5000');
  const results = res.body.results as { index: number; httpStatus: number; id?: string; error?: { code: string } }[];
  expect(results.map((r) => [r.index, r.httpStatus, r.error?.code])).toEqual([
    [0, 202, undefined],
    [1, 202, undefined],
    [2, 400, 'VALIDATION_FAILED'],
    [3, 202, undefined],
    [4, 202, undefined],
    [5, 202, undefined],
    [6, 429, 'RATE_LIMITED'],
    [7, 429, 'RATE_LIMITED'],
  ]);

  // Nothing lost: each accepted one is delivered; nothing half-accepted: a refused one has no record.
  const ids = results.filter((r) => r.httpStatus === 202).map((r) => r.id as string);
  const views = await waitAllTerminal(platform.redis.url, ids);
  expect(views.map((v) => v.status)).toEqual(ids.map(() => 'delivered'));
  for (const body of valid.slice(5)) expect(await recordExists('batched', body)).toBe(false);

  // A client retrying the whole batch: the accepted ones are duplicates, the refused ones refused again.
  const again = await postBatch(keyOf('batched'), items);
  expect(again.body).toMatchObject({ accepted: 0, duplicates: 5, rejected: 3 });
  expect((again.body.results as { httpStatus: number }[]).map((r) => r.httpStatus)).toEqual([200, 200, 400, 200, 200, 200, 429, 429]);
});

it("over the daily quota: 429 QUOTA_EXCEEDED until the UTC day ends; another tenant's quota is its own", async () => {
  const bodies = [0, 1, 2, 3, 4].map((i) => notificationFor(i, 'email', { prefix: 'quota', priority: 'urgent' }));
  for (const [i, body] of bodies.slice(0, 4).entries()) {
    const res = await post(platform.api.url, keyOf('quota'), body);
    expect(res.status).toBe(202);
    expect(res.headers['ratelimit-policy']).toBe('"daily";q=4;w=86400');
    expect(res.headers.ratelimit).toMatch(new RegExp(`^"daily";r=${3 - i};t=\\d+$`));
  }
  const before = Date.now();
  const refused = await post(platform.api.url, keyOf('quota'), bodies[4]);
  const after = Date.now();
  expect(refused.status).toBe(429);
  expect(refused.body.error.code).toBe('QUOTA_EXCEEDED');
  const retryAfter = Number(refused.headers['retry-after']);
  expect(refused.headers.ratelimit).toBe(`"daily";r=0;t=${retryAfter}`);
  // The window is the UTC day: Retry-After is the rest of it (a second either way for rounding).
  expect(retryAfter).toBeLessThanOrEqual(secondsToUtcMidnight(before) + 1);
  expect(retryAfter).toBeGreaterThanOrEqual(secondsToUtcMidnight(after) - 1);

  // Isolation: the same limits on another tenant are untouched, and an unlimited tenant is never refused.
  for (const body of bodies.slice(0, 4)) expect((await post(platform.api.url, keyOf('quota-twin'), body)).status).toBe(202);
  const batch = await postBatch(OTHER_TENANT_KEY, bodies);
  expect(batch.body).toMatchObject({ accepted: 5, rejected: 0 });

  const metrics = await (await fetch(platform.api.metricsUrl)).text();
  const sample = (tenant: string, result: string) =>
    Number(
      metrics
        .split('\n')
        .find((l) => l.startsWith('notify_tenant_notifications_total{') && l.includes(`tenant="${tenant}"`) && l.includes(`result="${result}"`))
        ?.split(' ')
        .at(-1),
    );
  expect(sample('quota', 'accepted')).toBe(4);
  expect(sample('quota', 'quota_exceeded')).toBe(1);
  expect(sample('quota-twin', 'quota_exceeded')).toBe(0);
  expect(sample('tenant-b', 'accepted')).toBe(5);
  expect(sample('rated', 'rate_limited')).toBe(1);
});

it('two api processes sharing one Redis count one quota exactly', async () => {
  const { proc, ports } = await spawnAppOnFreePorts(
    'api',
    2,
    ([port, metricsPort]) => ({ ...platform.env, API_PORT: String(port), API_METRICS_PORT: String(metricsPort) }),
    ([port]) => `http://127.0.0.1:${port}/readyz`,
  );
  const second = `http://127.0.0.1:${ports[0]}`;
  try {
    await countsOneQuota(second);
  } finally {
    await proc.kill();
  }
});

async function countsOneQuota(second: string): Promise<void> {
  const bodies = Array.from({ length: 24 }, (_, i) => notificationFor(i, 'sms', { prefix: 'shared', priority: 'urgent' }));
  // Both processes at once, alternating: 24 asked for, a quota of 10.
  const answers = await Promise.all(bodies.map((body, i) => post(i % 2 === 0 ? platform.api.url : second, keyOf('shared'), body)));
  const accepted = answers.filter((a) => a.status === 202);
  expect(accepted).toHaveLength(TENANTS.shared.limits.dailyQuota);
  expect(answers.filter((a) => a.status === 429 && a.body.error.code === 'QUOTA_EXCEEDED')).toHaveLength(24 - TENANTS.shared.limits.dailyQuota);

  // Every accepted one, repeated through the other process: its duplicate, never refused.
  const acceptedAt = answers.flatMap((a, i) => (a.status === 202 ? [i] : []));
  const repeats = await Promise.all(acceptedAt.map((i) => post(i % 2 === 0 ? second : platform.api.url, keyOf('shared'), bodies[i])));
  expect(repeats.map((r) => r.status)).toEqual(accepted.map(() => 200));
}
