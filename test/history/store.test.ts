import { isNotifyError } from '@notify/core';
import { isInvalidCursorError, openHistoryStore, type HistoryInsertMethod, type HistoryStore } from '@notify/history';
import type { PrivatePostgres } from '@notify/platform-kit';
import { freshDatabase, queryRows, startTestPostgres } from './postgres-fixture';
import { delivered, failed, idOf, viewOf } from './records';

const DAY = 86_400_000;
let server: PrivatePostgres;
let dbCount = 0;
const opened: HistoryStore[] = [];

async function open(url: string): Promise<HistoryStore> {
  const store = await openHistoryStore({ url, retentionDays: 30, applicationName: 'history-test' });
  opened.push(store);
  return store;
}
async function newStore(insertMethod?: HistoryInsertMethod): Promise<{ store: HistoryStore; url: string }> {
  const url = await freshDatabase(server, `store_${++dbCount}`);
  if (insertMethod === undefined) return { store: await open(url), url };
  const store = await openHistoryStore({ url, retentionDays: 30, applicationName: 'history-test', insertMethod });
  opened.push(store);
  return { store, url };
}

beforeAll(async () => {
  server = await startTestPostgres();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await server?.stop();
});

describe('migrations', () => {
  test('run at open, idempotently, and four stores opening an empty database at once all succeed', async () => {
    const url = await freshDatabase(server, 'concurrent_open');
    const stores = await Promise.all([open(url), open(url), open(url), open(url)]);
    await open(url);
    const applied = await queryRows<{ name: string }>(url, 'SELECT name FROM history_migration ORDER BY name');
    expect(applied.map((r) => r.name)).toEqual(['0001-initial', '0002-skipped-index', '0003-parked']);
    const now = Date.now();
    await Promise.all(stores.map((s, i) => s.insertBatch([delivered('t', `m${i}`, now)])));
    const [count] = await queryRows<{ n: string }>(url, 'SELECT count(*) AS n FROM history_notifications');
    expect(Number(count?.n)).toBe(4);
  });
});

describe('insertBatch and get', () => {
  test('the same batch twice (and a duplicate within a batch) stores one row each', async () => {
    const { store, url } = await newStore();
    const now = Date.now();
    const batch = Array.from({ length: 50 }, (_, i) => delivered('t', `dup${i}`, now - i * 1000));
    await store.insertBatch(batch);
    await store.insertBatch([...batch, batch[0]!]);
    const [count] = await queryRows<{ n: string }>(url, 'SELECT count(*) AS n FROM history_notifications');
    expect(Number(count?.n)).toBe(50);
  });

  test.each(['copy', 'staging', 'unnest'] as const)(
    "insert method '%s': a batch, the batch again with a new record and a duplicate (a crash's repeat), each row once and as written",
    async (method) => {
      const { store, url } = await newStore(method);
      const now = Date.now();
      const batch = Array.from({ length: 20 }, (_, i) => (i % 5 === 4 ? failed('t', `m${i}`, now - i * 1000) : delivered('t', `m${i}`, now - i * 1000)));
      await store.insertBatch(batch);
      const extra = delivered('t', 'extra', now - 99_000);
      await store.insertBatch([...batch, extra, batch[0]!]);
      const [count] = await queryRows<{ n: string }>(url, 'SELECT count(*) AS n FROM history_notifications');
      expect(Number(count?.n)).toBe(21);
      for (const r of [...batch, extra]) expect(await store.get('t', r.id)).toEqual(viewOf(r));
    },
  );

  test('a record already stored is left as it is', async () => {
    const { store } = await newStore();
    const first = delivered('t', 'keep', Date.now());
    await store.insertBatch([first]);
    await store.insertBatch([{ ...first, recipientId: 'changed' }]);
    expect((await store.get('t', first.id))?.recipientId).toBe(first.recipientId);
  });

  test('reads back complete records: attempts, skips, reasons, timestamps, reconciles and irregular values', async () => {
    const { store } = await newStore();
    const now = Date.now();
    const records = [
      delivered('t', 'ok', now),
      failed('t', 'failed', now - 5_000),
      failed('t', 'other-reason', now - 6_000, { failureReason: 'a reason this version does not know' }),
      failed('t', 'unconfirmed', now - 7_000, {
        status: 'unconfirmed',
        failureReason: 'unknown-outcome-unsettled-before-maximum-age',
        attempts: [
          {
            step: 1,
            channel: 'sms',
            kind: 'send',
            startedAt: now - 6_990,
            finishedAt: now - 4_990,
            durationMs: 2_000,
            outcome: 'unknown',
            spent: true,
            errorClass: 'timeout',
            message: 'no answer within the call timeout',
          },
          {
            step: 2,
            channel: 'sms',
            kind: 'reconcile',
            startedAt: now - 4_000,
            outcome: 'unknown',
            errorClass: 'worker-lost',
            message: 'the worker stopped during the call; outcome unknown, reconciling',
            finishedAt: now - 3_000,
          },
          {
            step: 3,
            channel: 'email',
            kind: 'send',
            startedAt: now - 2_000,
            finishedAt: now - 1_990,
            durationMs: 10,
            outcome: 'processing-error',
            spent: false,
            errorClass: 'render-failed',
            message: 'ünïcödé ✓',
          },
        ],
        skips: [
          { channel: 'push', reason: 'no-address', at: now - 7_000 },
          { channel: 'email', reason: 'suppressed', at: now - 1_000 },
        ],
      }),
      // Values the compact encoding cannot hold are kept verbatim (JSON fallback), never dropped.
      delivered('t', 'fractional', now - 8_000, {
        attempts: [
          { step: 1, channel: 'push', kind: 'send', startedAt: now - 7_990, finishedAt: now - 7_900, durationMs: 89.75, outcome: 'delivered', spent: true },
        ],
      }),
      delivered('t', 'reminder-email', now - 9_000, {
        priority: 'reminder',
        plan: ['email'],
        deliveredChannel: 'email',
        skips: [{ channel: 'push', reason: 'breaker-open', at: now - 9_000 }],
      }),
    ];
    await store.insertBatch(records);
    for (const r of records) expect(await store.get('t', r.id)).toEqual(viewOf(r));
  });

  test("an unknown id, a malformed id and another tenant's id read as undefined", async () => {
    const { store } = await newStore();
    const r = delivered('tenant-a', 'x', Date.now());
    await store.insertBatch([r]);
    expect(await store.get('tenant-a', r.id)).toBeDefined();
    expect(await store.get('tenant-b', r.id)).toBeUndefined();
    expect(await store.get('tenant-a', idOf('nope'))).toBeUndefined();
    expect(await store.get('tenant-a', 'not-an-id')).toBeUndefined();
  });
});

describe('list', () => {
  const now = Date.UTC(2026, 10, 30, 12, 0, 0);
  let store: HistoryStore;
  // tenant-a: 40 notifications over ~3 days (partitions), every 5th failed, every 3rd a reminder,
  // two recipients, and 4 per event; tenant-b: the same recipients and events, never visible to a.
  const a = Array.from({ length: 40 }, (_, i) => {
    const at = now - i * 2 * 3_600_000;
    const overrides = {
      recipientId: i % 2 === 0 ? 'alice' : 'bob',
      eventId: `event-${Math.floor(i / 4)}`,
      priority: i % 3 === 0 ? ('reminder' as const) : ('urgent' as const),
    };
    return i % 5 === 0 ? failed('tenant-a', `a${i}`, at, overrides) : delivered('tenant-a', `a${i}`, at, overrides);
  });
  const b = Array.from({ length: 10 }, (_, i) => delivered('tenant-b', `b${i}`, now - i * 1000, { recipientId: 'alice', eventId: 'event-0' }));
  const newestFirst = [...a].sort((x, y) => y.acceptedAt - x.acceptedAt || (y.id < x.id ? -1 : 1));

  beforeEach(async () => {
    store = (await newStore()).store;
    await store.insertBatch([...a, ...b]);
  });

  async function all(tenant: string, filter: Parameters<HistoryStore['list']>[1]) {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const page = await store.list(tenant, { ...filter, ...(cursor ? { cursor } : {}) });
      ids.push(...page.items.map((v) => v.id));
      if (!page.nextCursor) return ids;
      cursor = page.nextCursor;
    }
    throw new Error('more than 100 pages');
  }

  test('pages newest first by (acceptedAt, id), complete and without repeats', async () => {
    expect(await all('tenant-a', { limit: 7 })).toEqual(newestFirst.map((r) => r.id));
    const first = await store.list('tenant-a', { limit: 3 });
    expect(first.items.map((v) => v.id)).toEqual(newestFirst.slice(0, 3).map((r) => r.id));
    expect(first.items[0]).toEqual(viewOf(newestFirst[0]!));
    expect((await store.list('tenant-a', { limit: 40 })).nextCursor).toBeUndefined();
  });

  test('filters: recipient, event, status, priority, channel, since/until', async () => {
    const expectIds = async (filter: Omit<Parameters<HistoryStore['list']>[1], 'limit'>, keep: (r: (typeof a)[number]) => boolean) => {
      expect(await all('tenant-a', { limit: 4, ...filter })).toEqual(newestFirst.filter(keep).map((r) => r.id));
    };
    await expectIds({ recipientId: 'alice' }, (r) => r.recipientId === 'alice');
    await expectIds({ eventId: 'event-3' }, (r) => r.eventId === 'event-3');
    await expectIds({ status: 'failed' }, (r) => r.status === 'failed');
    await expectIds({ status: 'delivered' }, (r) => r.status === 'delivered');
    await expectIds({ status: 'unconfirmed' }, () => false);
    await expectIds({ priority: 'reminder' }, (r) => r.priority === 'reminder');
    await expectIds({ channel: 'email' }, (r) => r.attempts.some((t) => t.channel === 'email'));
    await expectIds({ channel: 'sms' }, () => false);
    const since = now - 20 * 3_600_000;
    const until = now - 4 * 3_600_000;
    await expectIds({ since, until }, (r) => r.acceptedAt >= since && r.acceptedAt < until);
    await expectIds(
      { recipientId: 'bob', status: 'failed', priority: 'urgent', since: now - 3 * DAY },
      (r) => r.recipientId === 'bob' && r.status === 'failed' && r.priority === 'urgent',
    );
    await expectIds({ recipientId: 'nobody' }, () => false);
  });

  test('stable under inserts: newer rows arriving between pages neither repeat nor shift older ones', async () => {
    const first = await store.list('tenant-a', { limit: 10 });
    await store.insertBatch(Array.from({ length: 15 }, (_, i) => delivered('tenant-a', `late${i}`, now + 1000 + i)));
    // Same acceptedAt as the page's last row: the id breaks the tie, so nothing is skipped either.
    const last = first.items[first.items.length - 1]!;
    await store.insertBatch([delivered('tenant-a', 'tie', last.acceptedAt)]);
    const rest = await all('tenant-a', { limit: 10, cursor: first.nextCursor });
    const tie = idOf('tenant-a/tie');
    const expected = newestFirst.slice(10).map((r) => r.id);
    if (tie < last.id) expected.unshift(tie);
    expect(rest).toEqual(expected);
  });

  test("tenant-scoped: another tenant's rows are never listed, even with the same recipient and event", async () => {
    expect(await all('tenant-b', { limit: 100 })).toEqual(b.map((r) => r.id));
    const aliceA = await all('tenant-a', { limit: 100, recipientId: 'alice', eventId: 'event-0' });
    expect(aliceA.every((id) => a.some((r) => r.id === id))).toBe(true);
    expect(aliceA.length).toBeGreaterThan(0);
    expect(await store.list('tenant-c', { limit: 10 })).toEqual({ items: [] });
    // A cursor from tenant-b's listing does not open tenant-a's rows beyond tenant-a's own.
    const bPage = await store.list('tenant-b', { limit: 2 });
    const viaB = await store.list('tenant-a', { limit: 100, cursor: bPage.nextCursor });
    expect(viaB.items.every((v) => a.some((r) => r.id === v.id))).toBe(true);
  });

  test('a bad cursor is an InvalidCursorError naming the field (a 400)', async () => {
    const good = (await store.list('tenant-a', { limit: 2 })).nextCursor as string;
    // The last character's lowest bit is padding (25 bytes in 34 characters): a non-canonical encoding.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const flipped = `${good.slice(0, -1)}${alphabet[alphabet.indexOf(good.slice(-1)) ^ 1]}`;
    const wrongVersion = Buffer.from(good, 'base64url');
    wrongVersion[0] = 9;
    const bad = [
      '',
      'x',
      `${good}A`,
      good.slice(1),
      good.replace(/.$/, '='),
      `${good.slice(0, -2)}!!`,
      flipped,
      wrongVersion.toString('base64url'),
      Buffer.alloc(25, 0xff).toString('base64url'),
    ];
    for (const cursor of bad) {
      const error = await store.list('tenant-a', { limit: 2, cursor }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isInvalidCursorError(error)).toBe(true);
      expect(isNotifyError(error) && error.httpStatus === 400 && error.details?.[0]?.field === 'cursor').toBe(true);
    }
  });
});
