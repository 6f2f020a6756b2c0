import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import request from 'supertest';
import { pendingIntakeKey, type NotificationView } from '@notify/core';
import { waitFor } from '@notify/platform-kit';
import { OTHER_TENANT_KEY, startTestPlatform, TEST_API_KEY, type TestPlatform } from '../../harness/platform';

/**
 * Quiet hours against the real pipeline, 22:00 to 08:00 in Asia/Kolkata (UTC+05:30, a window
 * across midnight). The workers' step clock stands a few seconds before the window's end (the
 * api's and Redis' clocks are real), so the test waits seconds and a 2 s spread, never a night.
 */
const ZONE = 'Asia/Kolkata';
const QUIET_HOURS = { start: '22:00', end: '08:00' };
const SPREAD_SECONDS = 2;
const LEAD_MS = 6_000;

/** The next 08:00 in Kolkata (02:30 UTC) at least a minute after `now`. */
function nextWindowEnd(now: number): number {
  const d = new Date(now);
  const today = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 2, 30);
  return today > now + 60_000 ? today : today + 86_400_000;
}

/** The workers' clock: real until the test moves it to just before the window ends. */
let clockShiftMs = 0;
let platform: TestPlatform;
let redis: Redis | undefined;

beforeAll(async () => {
  const tenantsFile = join(mkdtempSync(join(tmpdir(), 'tenants-')), 'tenants.json');
  // tenant-b's default window holds its reminders; tenant-a has no defaults.
  writeFileSync(tenantsFile, JSON.stringify({ 'tenant-b': { timeZone: ZONE, quietHours: QUIET_HOURS } }));
  platform = await startTestPlatform({
    env: { TENANTS_FILE: tenantsFile, QUIET_HOURS_SPREAD_SECONDS: String(SPREAD_SECONDS) },
    workerNow: () => Date.now() + clockShiftMs,
  });
  redis = new Redis(platform.redis.url);
});
afterAll(async () => {
  redis?.disconnect();
  await platform?.stop();
});

async function post(key: string, body: Record<string, unknown>): Promise<string> {
  const res = await request(platform.api.url).post('/v1/notifications').set('authorization', `Bearer ${key}`).send(body);
  expect(res.status).toBe(202);
  return res.body.id as string;
}

async function view(key: string, id: string): Promise<NotificationView> {
  return (await request(platform.api.url).get(`/v1/notifications/${id}`).set('authorization', `Bearer ${key}`)).body as NotificationView;
}

/** The view of `id` once `ready` holds for it. */
async function viewWhen(key: string, id: string, what: string, ready: (v: NotificationView) => boolean, timeoutMs?: number): Promise<NotificationView> {
  return waitFor(
    `${id} ${what}`,
    async () => {
      const v = await view(key, id);
      return ready(v) ? v : undefined;
    },
    timeoutMs,
  );
}

const content = { title: 'Your order', body: 'ships tomorrow' };
const email = { email: 'q@example.com' };

it('holds reminders (profile, request and tenant default) and urgent ones that ask, until the window ends; urgent goes at once', async () => {
  const windowEnd = nextWindowEnd(Date.now());
  clockShiftMs = windowEnd - LEAD_MS - Date.now();
  const put = await request(platform.api.url)
    .put('/v1/recipients/night-owl')
    .set('authorization', `Bearer ${TEST_API_KEY}`)
    .send({ addresses: email, timeZone: ZONE, quietHours: QUIET_HOURS });
  expect(put.status).toBeLessThan(300);

  const held = [
    { key: TEST_API_KEY, id: await post(TEST_API_KEY, { eventId: 'qh-profile', priority: 'reminder', recipient: { id: 'night-owl' }, content }) },
    {
      key: TEST_API_KEY,
      id: await post(TEST_API_KEY, {
        eventId: 'qh-urgent-respects',
        priority: 'urgent',
        respectQuietHours: true,
        recipient: { id: 'r2', addresses: email, timeZone: ZONE, quietHours: QUIET_HOURS },
        content,
      }),
    },
    {
      key: OTHER_TENANT_KEY,
      id: await post(OTHER_TENANT_KEY, { eventId: 'qh-tenant', priority: 'reminder', recipient: { id: 'r3', addresses: email }, content }),
    },
  ];
  const urgent = await post(TEST_API_KEY, {
    eventId: 'qh-urgent',
    priority: 'urgent',
    recipient: { id: 'r4', addresses: email, timeZone: ZONE, quietHours: QUIET_HOURS },
    content,
  });
  const loose = await post(TEST_API_KEY, { eventId: 'qh-none', priority: 'reminder', recipient: { id: 'r5', addresses: email }, content });

  for (const { key, id } of held) {
    const waiting = await viewWhen(key, id, 'waiting', (v) => (v.waits?.length ?? 0) > 0);
    expect(waiting.status).toBe('retry-scheduled');
    expect(waiting.attempts).toEqual([]);
    const [wait] = waiting.waits ?? [];
    expect(wait?.reason).toBe('quiet-hours');
    expect(wait?.until).toBeGreaterThanOrEqual(windowEnd);
    expect(wait?.until).toBeLessThanOrEqual(windowEnd + SPREAD_SECONDS * 1_000);
    // The intake sweeper leaves a waiting notification alone until its release.
    expect(Number(await redis?.zscore(pendingIntakeKey(0), id))).toBe(wait?.until);
  }

  // Urgent without respectQuietHours, and a reminder of a tenant without defaults, are delivered without a wait.
  for (const id of [urgent, loose]) {
    const delivered = await viewWhen(TEST_API_KEY, id, 'delivered', (v) => v.status === 'delivered');
    expect(delivered.waits).toBeUndefined();
  }
  // After the window (and the spread), each is delivered, never before its release.
  for (const { key, id } of held) {
    const done = await viewWhen(key, id, 'delivered after the window', (v) => v.status === 'delivered', 30_000);
    const until = done.waits?.[0]?.until ?? Infinity;
    expect(done.attempts).toHaveLength(1);
    expect(done.attempts[0]?.startedAt).toBeGreaterThanOrEqual(until);
    expect(done.deliveredAt).toBeGreaterThanOrEqual(windowEnd);
    expect(done.waits).toHaveLength(1);
  }
});

it('refuses an unknown time zone and malformed quiet hours with a 400 naming the field', async () => {
  const refuse = async (path: string, method: 'post' | 'put', body: object) => {
    const res = await request(platform.api.url)[method](path).set('authorization', `Bearer ${TEST_API_KEY}`).send(body);
    expect(res.status).toBe(400);
    return res.body as { error: { details: { field: string }[] } };
  };
  const bad = await refuse('/v1/notifications', 'post', {
    eventId: 'qh-bad',
    priority: 'reminder',
    recipient: { id: 'r6', addresses: email, timeZone: 'Mars/Olympus_Mons', quietHours: { start: '22:00', end: '22:00' } },
    content,
  });
  expect(bad.error.details.map((d) => d.field).sort()).toEqual(['recipient.quietHours.end', 'recipient.timeZone']);
  const profile = await refuse('/v1/recipients/r7', 'put', { addresses: email, quietHours: { start: '7:00', end: '08:00' } });
  expect(profile.error.details.map((d) => d.field)).toEqual(['quietHours.start']);
});
