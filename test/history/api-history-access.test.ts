import pino from 'pino';
import { isNotifyError, type NotificationView } from '@notify/core';
import { InvalidCursorError, emptyParkedStore, type HistoryStore, type ListPage } from '@notify/history';
import { waitFor } from '@notify/platform-kit';
import { openHistoryAccess } from '../../apps/api/src/history-access';

/**
 * The api's access to the history without PostgreSQL: a store that cannot be opened at first
 * (PostgreSQL not up yet) or that fails or hangs on a query. The real store: api.test.ts.
 */
const CONFIG = { enabled: true, url: 'postgres://user:secret@db.internal:5432/notify', retentionDays: 30, idempotencyWindowSeconds: 604_800 };
const PAGE: ListPage = { items: [] };

function fakeStore(overrides: Partial<HistoryStore> = {}): HistoryStore & { closed: boolean } {
  const store = {
    closed: false,
    insertBatch: () => Promise.resolve(),
    get: () => Promise.resolve(undefined as NotificationView | undefined),
    list: () => Promise.resolve(PAGE),
    update: () => Promise.resolve(undefined),
    maintainPartitions: () => Promise.resolve(),
    parked: emptyParkedStore(),
    ping: () => Promise.resolve(),
    close: () => {
      store.closed = true;
      return Promise.resolve();
    },
    ...overrides,
  };
  return store;
}

/** A logger whose lines are kept (to check what an outage logs). */
function recordingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

const errorOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

it('keeps trying to open the store while PostgreSQL does not answer, answering 503 meanwhile, and logs no address', async () => {
  const { logger, lines } = recordingLogger();
  let attempts = 0;
  const store = fakeStore();
  const access = openHistoryAccess(CONFIG, logger, {
    retryMs: 10,
    maxRetryMs: 20,
    open: () => {
      attempts += 1;
      if (attempts < 4) return Promise.reject(Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:5432 (user:secret)'), { code: 'ECONNREFUSED' }));
      return Promise.resolve(store);
    },
  });
  const early = await errorOf(access.list('t', { limit: 10 }));
  expect(isNotifyError(early) && early.code).toBe('DEPENDENCY_UNAVAILABLE');
  expect(isNotifyError(early) && early.httpStatus).toBe(503);
  await waitFor('the store opened', async () => access.state === 'open', 5_000);
  expect(attempts).toBe(4);
  await expect(access.list('t', { limit: 10 })).resolves.toEqual(PAGE);
  const logged = JSON.stringify(lines);
  expect(logged).toContain('ECONNREFUSED');
  expect(logged).not.toMatch(/10\.1\.2\.3|secret|db\.internal/);
  expect(lines.filter((l) => l.level === 40)).toHaveLength(1); // one warning for the outage, not one per attempt
  await access.close();
  expect(store.closed).toBe(true);
});

it('opens the store on the first request once PostgreSQL answers again, without waiting for the next retry', async () => {
  const { logger } = recordingLogger();
  let up = false;
  let attempts = 0;
  const store = fakeStore({ get: () => Promise.resolve({ id: 'from-history' } as unknown as NotificationView) });
  const access = openHistoryAccess(CONFIG, logger, {
    // The back-off's next turn is far off: only a request can open the store in this test.
    retryMs: 3_600_000,
    maxRetryMs: 3_600_000,
    open: () => {
      attempts += 1;
      return up ? Promise.resolve(store) : Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    },
  });
  const down = await errorOf(access.get('t', '0'.repeat(32)));
  expect(isNotifyError(down) && [down.httpStatus, down.message]).toEqual([503, expect.stringMatching(/not reachable yet/)]);
  up = true;
  // Concurrent first requests share one open.
  const before = attempts;
  const [byId, list] = await Promise.all([access.get('t', '0'.repeat(32)), access.list('t', { limit: 10 })]);
  expect(byId).toEqual({ id: 'from-history' });
  expect(list).toEqual(PAGE);
  expect(attempts).toBe(before + 1);
  expect(access.state).toBe('open');
  await access.close();
  expect(store.closed).toBe(true);
});

it("answers 503 for a failing or hanging query, with a cause that holds no address; a bad cursor stays the client's 400", async () => {
  const { logger } = recordingLogger();
  const failing = fakeStore({
    list: () => Promise.reject(Object.assign(new Error('terminating connection: 10.1.2.3'), { code: '57P01' })),
    get: () => new Promise<never>(() => undefined), // PostgreSQL that never answers
  });
  const access = openHistoryAccess(CONFIG, logger, { queryTimeoutMs: 50, open: () => Promise.resolve(failing) });
  await waitFor('open', async () => access.state === 'open', 5_000);
  const listError = await errorOf(access.list('t', { limit: 10 }));
  expect(isNotifyError(listError) && listError.code).toBe('DEPENDENCY_UNAVAILABLE');
  expect(String((listError as Error).cause)).toMatch(/57P01/);
  expect(String((listError as Error).cause)).not.toMatch(/10\.1\.2\.3/);
  const getError = await errorOf(access.get('t', '0'.repeat(32)));
  expect(isNotifyError(getError) && getError.code).toBe('DEPENDENCY_UNAVAILABLE');
  expect(String((getError as Error).cause)).toMatch(/QUERY_TIMEOUT/);
  await access.close();

  const cursorStore = fakeStore({ list: () => Promise.reject(new InvalidCursorError('must be a cursor returned as nextCursor')) });
  const withCursor = openHistoryAccess(CONFIG, logger, { open: () => Promise.resolve(cursorStore) });
  await waitFor('open', async () => withCursor.state === 'open', 5_000);
  const cursorError = await errorOf(withCursor.list('t', { limit: 10, cursor: 'x' }));
  expect(isNotifyError(cursorError) && [cursorError.httpStatus, cursorError.details]).toEqual([
    400,
    [{ field: 'cursor', reason: 'must be a cursor returned as nextCursor' }],
  ]);
  await withCursor.close();
});

it('closed while PostgreSQL is still down: stops trying, and a store opened late is closed at once', async () => {
  const { logger } = recordingLogger();
  let attempts = 0;
  let release: ((s: HistoryStore) => void) | undefined;
  const late = fakeStore();
  const access = openHistoryAccess(CONFIG, logger, {
    retryMs: 10,
    open: () => {
      attempts += 1;
      return attempts === 1 ? Promise.reject(new Error('down')) : new Promise<HistoryStore>((resolve) => (release = resolve));
    },
  });
  await waitFor('the second attempt is under way', async () => release !== undefined, 5_000);
  const closing = access.close();
  release?.(late);
  await closing;
  expect(late.closed).toBe(true);
  expect(access.state).toBe('connecting');
  expect(attempts).toBe(2);
});

it('with the history disabled: lists answer 503 naming HISTORY_ENABLED, by id reads nothing from it', async () => {
  const access = openHistoryAccess({ ...CONFIG, enabled: false }, pino({ level: 'silent' }));
  expect(access.state).toBe('disabled');
  const error = await errorOf(access.list('t', { limit: 1 }));
  expect(isNotifyError(error) && [error.httpStatus, error.message]).toEqual([503, expect.stringMatching(/HISTORY_ENABLED=false/)]);
  await expect(access.get('t', '0'.repeat(32))).resolves.toBeUndefined();
});

it("maintains the open store's partitions on its interval (retention in a long-running api), and stops on close", async () => {
  const { logger, lines } = recordingLogger();
  const calls: number[] = [];
  const store = fakeStore({
    maintainPartitions: (now: number) => {
      calls.push(now);
      return calls.length === 2 ? Promise.reject(Object.assign(new Error('10.1.2.3 gone'), { code: 'ECONNRESET' })) : Promise.resolve();
    },
  });
  const access = openHistoryAccess(CONFIG, logger, { maintenanceIntervalMs: 20, open: () => Promise.resolve(store) });
  await waitFor('three maintenance passes', async () => calls.length >= 3, 5_000);
  expect(calls.every((now) => Math.abs(now - Date.now()) < 60_000)).toBe(true);
  expect(lines.some((l) => l.level === 40 && JSON.stringify(l).includes('ECONNRESET'))).toBe(true);
  expect(JSON.stringify(lines)).not.toContain('10.1.2.3');
  await access.close();
  const after = calls.length;
  // A second access on the same interval, as the clock: three of its passes, none of the closed one's.
  let ticks = 0;
  const clock = openHistoryAccess(CONFIG, logger, {
    maintenanceIntervalMs: 20,
    open: () => Promise.resolve(fakeStore({ maintainPartitions: () => Promise.resolve(void (ticks += 1)) })),
  });
  await waitFor('three passes of another access', async () => ticks >= 3, 5_000);
  await clock.close();
  expect(calls.length).toBe(after);
});
