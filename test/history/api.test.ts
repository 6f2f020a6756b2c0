import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import pino from 'pino';
import { openHistoryStore, type HistoryRecord, type HistoryStore } from '@notify/history';
import { freePort, startPrivateRedis, waitFor, type PrivatePostgres, type PrivateRedis } from '@notify/platform-kit';
import { startApi, type RunningApi } from '../../apps/api/src/api-runtime';
import { loadConfig } from '../../apps/api/src/config';
import { notificationViewSchema } from '../../apps/api/src/openapi/response-schemas';
import { freshDatabase, startTestPostgres } from './postgres-fixture';
import { delivered, failed, viewOf } from './records';

/**
 * Reading the history through the api (docs/history.md, "Reading the history (API)"): the real api runtime on a
 * private Redis and a private PostgreSQL, two tenants, records archived straight into the store.
 */
const KEY_A = 'history-key-tenant-a-000000000000';
const KEY_B = 'history-key-tenant-b-000000000000';
const MAX_LIMIT = 20;
const HOUR = 3_600_000;
const silent = pino({ level: 'silent' });

let redis: PrivateRedis;
let postgres: PrivatePostgres;
let databaseUrl: string;
let store: HistoryStore;
const apis: RunningApi[] = [];

/**
 * PostgreSQL crashes (SIGKILL to the postmaster, by the pid in its lock file: under root the
 * server runs below runuser, which a SIGKILL to the wrapper does not reach).
 */
async function killPostgres(): Promise<void> {
  await postgres.kill();
  const pid = Number(readFileSync(join(postgres.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (alive()) process.kill(pid, 'SIGKILL');
  await waitFor('the postmaster is gone', async () => !alive(), 10_000);
}

async function api(env: Record<string, string> = {}): Promise<RunningApi> {
  const running = await startApi(
    loadConfig({
      REDIS_URL: redis.url,
      DATABASE_URL: databaseUrl,
      HISTORY_ENABLED: 'true',
      HISTORY_MAX_LIST_LIMIT: String(MAX_LIMIT),
      API_KEYS: `${KEY_A}:tenant-a,${KEY_B}:tenant-b`,
      API_PORT: '0',
      API_METRICS_PORT: '0',
      LOG_LEVEL: 'silent',
      ...env,
    }),
    silent,
  );
  apis.push(running);
  return running;
}

async function get(base: RunningApi, path: string, key = KEY_A): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** POSTs one notification for KEY_A's tenant to recipient r-live; returns the HTTP status and the id. */
async function postLive(base: RunningApi, eventId: string, priority: string, addresses: Record<string, string>): Promise<{ status: number; id: string }> {
  const res = await fetch(`${base.url}/v1/notifications`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/json' },
    body: JSON.stringify({ eventId, priority, recipient: { id: 'r-live', addresses }, content: { title: 't', body: 'b' } }),
  });
  return { status: res.status, id: ((await res.json()) as { id: string }).id };
}

type Page = { items: { id: string; acceptedAt: number; recipientId: string; status: string }[]; nextCursor?: string };

/** Every page of a list, following nextCursor (bounded). */
async function allPages(base: RunningApi, path: string, key = KEY_A, from?: string): Promise<Page['items'][]> {
  const pages: Page['items'][] = [];
  let cursor: string | undefined = from;
  for (let i = 0; i < 100; i += 1) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await get(base, cursor ? `${path}${sep}cursor=${cursor}` : path, key);
    expect(res.status).toBe(200);
    const page = res.body as unknown as Page;
    pages.push(page.items);
    cursor = page.nextCursor;
    if (!cursor) return pages;
  }
  throw new Error('more than 100 pages');
}

const now = Date.now();
/** Tenant A: 45 notifications over the last 45 hours, three recipients, both priorities, every terminal status. */
const recordsA: HistoryRecord[] = Array.from({ length: 45 }, (_, i) => {
  const at = now - (i + 1) * HOUR;
  const base = { recipientId: `r-${i % 3}`, priority: i % 2 === 0 ? 'urgent' : 'reminder' } as const;
  if (i % 5 === 0) return failed('tenant-a', `a${i}`, at, base);
  if (i % 7 === 0) {
    return delivered('tenant-a', `a${i}`, at, {
      ...base,
      status: 'unconfirmed',
      deliveredChannel: undefined,
      deliveredAt: undefined,
      latencyMs: undefined,
      failureReason: 'unknown-outcome-budget-exhausted',
      attempts: [{ step: 1, channel: 'sms', kind: 'send', startedAt: at + 5, finishedAt: at + 3_005, durationMs: 3_000, outcome: 'unknown', spent: true }],
    });
  }
  return delivered('tenant-a', `a${i}`, at, base);
});
/** Tenant B: the same recipient ids, so only the tenant scope tells them apart. */
const recordsB: HistoryRecord[] = Array.from({ length: 6 }, (_, i) => delivered('tenant-b', `b${i}`, now - (i + 1) * HOUR, { recipientId: `r-${i % 3}` }));
const idsA = new Set(recordsA.map((r) => r.id));

beforeAll(async () => {
  [redis, postgres] = await Promise.all([startPrivateRedis(), startTestPostgres()]);
  databaseUrl = await freshDatabase(postgres, 'api_history');
  store = await openHistoryStore({ url: databaseUrl, retentionDays: 30, applicationName: 'api-test-seed' });
  await store.insertBatch([...recordsA, ...recordsB]);
});

afterAll(async () => {
  await Promise.all(apis.map((a) => a.close()));
  await store?.close();
  await Promise.all([redis?.stop(), postgres?.stop()]);
});

describe('GET /v1/notifications (history list)', () => {
  let base: RunningApi;
  beforeAll(async () => {
    base = await api();
    await waitFor('the api opened the history', async () => (await get(base, '/v1/notifications')).status === 200, 30_000);
  });

  it("pages through every notification of the tenant, newest first, never another tenant's", async () => {
    const pages = await allPages(base, '/v1/notifications?limit=7');
    expect(pages.map((p) => p.length)).toEqual([7, 7, 7, 7, 7, 7, 3]);
    const items = pages.flat();
    expect(items.map((i) => i.id)).toEqual([...recordsA].sort((x, y) => y.acceptedAt - x.acceptedAt).map((r) => r.id));
    const itemsB = (await allPages(base, '/v1/notifications?limit=4', KEY_B)).flat();
    expect(itemsB.map((i) => i.id).sort()).toEqual(recordsB.map((r) => r.id).sort());
    expect(itemsB.some((i) => idsA.has(i.id))).toBe(false);
  });

  it('answers each item in the documented NotificationView shape, equal to what was archived', async () => {
    const res = await get(base, `/v1/notifications?eventId=${recordsA[5]!.eventId}`);
    expect(res.status).toBe(200);
    const page = res.body as unknown as Page;
    expect(page.items).toEqual([viewOf(recordsA[5]!)]);
    expect(page.nextCursor).toBeUndefined();
    for (const item of page.items) expect(notificationViewSchema.safeParse(item).success).toBe(true);
  });

  it('filters by recipient, status, priority, channel and time (since inclusive, until exclusive)', async () => {
    const ids = async (query: string) =>
      (await allPages(base, `/v1/notifications?${query}`))
        .flat()
        .map((i) => i.id)
        .sort();
    const expected = (keep: (r: HistoryRecord) => boolean) =>
      recordsA
        .filter(keep)
        .map((r) => r.id)
        .sort();
    expect(await ids('recipientId=r-1')).toEqual(expected((r) => r.recipientId === 'r-1'));
    expect(await ids('status=failed')).toEqual(expected((r) => r.status === 'failed'));
    expect(await ids('status=unconfirmed&channel=sms')).toEqual(expected((r) => r.status === 'unconfirmed'));
    expect(await ids('priority=reminder&status=delivered')).toEqual(expected((r) => r.priority === 'reminder' && r.status === 'delivered'));
    expect(await ids('channel=email')).toEqual(expected((r) => r.attempts.some((a) => a.channel === 'email')));
    const since = recordsA[10]!.acceptedAt;
    const until = recordsA[3]!.acceptedAt;
    const inWindow = expected((r) => r.acceptedAt >= since && r.acceptedAt < until);
    expect(inWindow).toHaveLength(7);
    expect(await ids(`since=${since}&until=${until}`)).toEqual(inWindow);
    expect(await ids(`since=${new Date(since).toISOString()}&until=${encodeURIComponent(new Date(until).toISOString().replace('Z', '+00:00'))}`)).toEqual(
      inWindow,
    );
    // Another tenant's recipient of the same id: tenant B sees its own two only.
    expect(
      (await allPages(base, '/v1/notifications?recipientId=r-1', KEY_B))
        .flat()
        .map((i) => i.id)
        .sort(),
    ).toEqual(
      recordsB
        .filter((r) => r.recipientId === 'r-1')
        .map((r) => r.id)
        .sort(),
    );
  });

  it('keeps its pages stable while newer notifications are archived between them', async () => {
    const first = (await get(base, '/v1/notifications?recipientId=r-2&limit=5')).body as unknown as Page;
    await store.insertBatch(Array.from({ length: 4 }, (_, i) => delivered('tenant-a', `late${i}`, Date.now() - i, { recipientId: 'r-2' })));
    const rest = (await allPages(base, '/v1/notifications?recipientId=r-2&limit=5', KEY_A, first.nextCursor)).flat();
    const seen = [...first.items, ...rest].map((i) => i.id);
    expect(seen).toEqual(
      recordsA
        .filter((r) => r.recipientId === 'r-2')
        .sort((x, y) => y.acceptedAt - x.acceptedAt)
        .map((r) => r.id),
    );
  });

  it.each([
    ['an unknown filter', 'tenant=tenant-b', 'tenant'],
    ['a status of a notification in flight', 'status=sending', 'status'],
    ['a bad channel', 'channel=fax', 'channel'],
    ['a bad priority', 'priority=high', 'priority'],
    ['a time without a zone', 'since=2026-11-30T10:00:00', 'since'],
    ['a date that does not exist', 'until=2026-02-30', 'until'],
    ['until before since', 'since=2000&until=1000', 'until'],
    ['a bad cursor', 'cursor=not-a-cursor', 'cursor'],
    ['a cursor of another version', 'cursor=AgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'cursor'],
    ['a limit over the maximum', `limit=${MAX_LIMIT + 1}`, 'limit'],
    ['a limit of zero', 'limit=0', 'limit'],
    ['a field given twice', 'status=failed&status=delivered', 'status'],
    ['a bad recipient id', `recipientId=${encodeURIComponent('a b')}`, 'recipientId'],
  ])('answers 400 naming the field for %s', async (_what, query, field) => {
    const res = await get(base, `/v1/notifications?${query}`);
    expect(res.status).toBe(400);
    const error = res.body.error as { code: string; details: { field: string }[] };
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details.map((d) => d.field)).toContain(field);
  });

  it('fuzzed query strings: 200 or a 400 naming a field it was given, never a 5xx', async () => {
    const known = ['recipientId', 'eventId', 'status', 'priority', 'channel', 'since', 'until', 'limit', 'cursor'];
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom('delivered', 'failed', 'urgent', 'push', '0', '1', '20', '21', '-1', '1e3', '2026-11-30', '2026-11-30T10:00:00Z', 'r-1', ''),
      fc.integer({ min: -1, max: 2 ** 53 }).map(String),
      fc.base64String({ maxLength: 40 }),
    );
    const query = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...known), fc.string({ maxLength: 12 })), value), { maxLength: 5 });
    await fc.assert(
      fc.asyncProperty(query, async (pairs) => {
        const qs = new URLSearchParams(pairs).toString();
        const res = await get(base, `/v1/notifications?${qs}`);
        if (res.status === 200) return Array.isArray(res.body.items);
        if (res.status !== 400) throw new Error(`?${qs} answered ${res.status}: ${JSON.stringify(res.body)}`);
        const details = (res.body.error as { details?: { field: string }[] }).details ?? [];
        const given = new Set(pairs.map(([k]) => k.slice(0, 100)));
        return details.length > 0 && details.every((d) => given.has(d.field));
      }),
      { numRuns: 300 },
    );
  });

  it('fuzzed raw query strings (broken escapes, empty keys, brackets): 200 or 400, never a 5xx', async () => {
    const unit = fc.constantFrom(...'%&=+[]._-~0123456789abcdefsinceulimtrpyvdcEFZT:'.split(''), '%00', '%zz', '%E2%82', 'status', 'limit', 'since', 'cursor');
    await fc.assert(
      fc.asyncProperty(fc.string({ unit, maxLength: 30 }), async (raw) => {
        const res = await get(base, `/v1/notifications?${raw}`);
        if (res.status !== 200 && res.status !== 400) throw new Error(`?${raw} answered ${res.status}: ${JSON.stringify(res.body)}`);
        return res.status === 200 ? Array.isArray(res.body.items) : ((res.body.error as { details?: unknown[] }).details ?? []).length > 0;
      }),
      { numRuns: 300 },
    );
  });
});

describe('GET /v1/recipients/{id}/notifications', () => {
  it('lists one recipient of the tenant, and refuses recipientId in the query', async () => {
    const base = await api();
    await waitFor('the api opened the history', async () => (await get(base, '/v1/recipients/r-0/notifications')).status === 200, 30_000);
    const items = (await allPages(base, '/v1/recipients/r-0/notifications?limit=4&status=delivered')).flat();
    expect(items.map((i) => i.id).sort()).toEqual(
      recordsA
        .filter((r) => r.recipientId === 'r-0' && r.status === 'delivered')
        .map((r) => r.id)
        .sort(),
    );
    const other = (await allPages(base, '/v1/recipients/r-0/notifications', KEY_B)).flat();
    expect(other.map((i) => i.id).sort()).toEqual(
      recordsB
        .filter((r) => r.recipientId === 'r-0')
        .map((r) => r.id)
        .sort(),
    );
    expect((await get(base, '/v1/recipients/nobody/notifications')).body).toEqual({ items: [] });
    const bad = await get(base, '/v1/recipients/r-0/notifications?recipientId=r-1');
    expect(bad.status).toBe(400);
    expect((bad.body.error as { details: { field: string }[] }).details.map((d) => d.field)).toEqual(['recipientId']);
  });
});

describe('GET /v1/notifications/{id}: Redis while in flight, the history after', () => {
  it("answers an archived notification from the history in the same shape, and another tenant's as 404", async () => {
    const base = await api();
    const archived = recordsA[7]!;
    await waitFor('the history answers', async () => (await get(base, `/v1/notifications/${archived.id}`)).status === 200, 30_000);
    const res = await get(base, `/v1/notifications/${archived.id}`);
    expect(res.body).toEqual(viewOf(archived));
    expect(notificationViewSchema.safeParse(res.body).success).toBe(true);
    expect((await get(base, `/v1/notifications/${archived.id}`, KEY_B)).status).toBe(404);
  });

  it('answers one in flight from Redis, in the same documented shape', async () => {
    const base = await api();
    const { status, id } = await postLive(base, 'in-flight-1', 'urgent', { sms: '+905551112233' });
    expect(status).toBe(202);
    const view = await get(base, `/v1/notifications/${id}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ id, eventId: 'in-flight-1', recipientId: 'r-live', status: 'accepted' });
    expect(notificationViewSchema.safeParse(view.body).success).toBe(true);
  });
});

describe('without the history', () => {
  it('HISTORY_ENABLED=false: the lists answer 503 in the error shape, status by id still answers from Redis', async () => {
    const base = await api({ HISTORY_ENABLED: 'false' });
    for (const path of ['/v1/notifications', '/v1/recipients/r-0/notifications']) {
      const res = await get(base, path);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: { code: 'DEPENDENCY_UNAVAILABLE', message: expect.stringMatching(/HISTORY_ENABLED=false/) } });
    }
    expect((await get(base, '/v1/notifications?limit=0')).status).toBe(400); // bad input is still the client's
    const { id } = await postLive(base, 'no-history-1', 'reminder', { email: 'x@example.com' });
    expect((await get(base, `/v1/notifications/${id}`)).body).toMatchObject({ id, status: 'accepted' });
    expect((await get(base, `/v1/notifications/${recordsA[0]!.id}`)).status).toBe(404);
  });

  it('PostgreSQL down: 503 for the lists and for an archived id, Redis still answers, and the lists come back with it', async () => {
    const base = await api();
    await waitFor('the api opened the history', async () => (await get(base, '/v1/notifications')).status === 200, 30_000);
    const { id } = await postLive(base, 'pg-down-1', 'urgent', { push: 'tok' });
    await killPostgres();
    try {
      const list = await get(base, '/v1/notifications?status=failed');
      expect(list.status).toBe(503);
      expect(list.body).toEqual({ error: { code: 'DEPENDENCY_UNAVAILABLE', message: expect.stringMatching(/history/) } });
      expect((await get(base, `/v1/recipients/r-1/notifications`)).status).toBe(503);
      expect((await get(base, `/v1/notifications/${recordsA[1]!.id}`)).status).toBe(503);
      expect((await get(base, `/v1/notifications/${id}`)).body).toMatchObject({ id, status: 'accepted' });
    } finally {
      await postgres.restart();
    }
    await waitFor('the lists answer again', async () => (await get(base, '/v1/notifications')).status === 200, 30_000);
  });

  it('PostgreSQL not there when the api starts: it starts anyway, lists answer 503', async () => {
    const base = await api({ DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/nothing` });
    const res = await get(base, '/v1/notifications');
    expect(res.status).toBe(503);
    expect((res.body.error as { code: string }).code).toBe('DEPENDENCY_UNAVAILABLE');
    expect((await get(base, '/healthz')).status).toBe(200);
  });
});
