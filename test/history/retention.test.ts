import { openHistoryStore, type HistoryStore } from '@notify/history';
import type { PrivatePostgres } from '@notify/platform-kit';
import { freshDatabase, queryRows, startTestPostgres } from './postgres-fixture';
import { delivered } from './records';

const DAY = 86_400_000;
let server: PrivatePostgres;
let store: HistoryStore | undefined;

beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(async () => {
  await store?.close();
  await server?.stop();
});

const partitions = async (url: string) =>
  (
    await queryRows<{ name: string }>(
      url,
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
   WHERE i.inhparent = 'history_notifications'::regclass ORDER BY 1`,
    )
  ).map((r) => r.name);

test('retention drops whole day partitions older than HISTORY_RETENTION_DAYS and creates the days ahead', async () => {
  const url = await freshDatabase(server, 'retention');
  store = await openHistoryStore({ url, retentionDays: 3, partitionsAhead: 2 });
  const now = Date.UTC(2026, 10, 30, 12, 0, 0);
  // Rows on days now-6 .. now (partitions created on demand by insertBatch).
  const rows = Array.from({ length: 7 }, (_, d) => delivered('t', `day${d}`, now - d * DAY));
  await store.insertBatch(rows);
  expect(await partitions(url)).toEqual(
    expect.arrayContaining(['history_notifications_d20261124', 'history_notifications_d20261127', 'history_notifications_d20261130']),
  );

  await store.maintainPartitions(now);

  const names = await partitions(url);
  // Kept: every day whose end is within 3 days of now (27th ends 28th 00:00 > now - 3 days = 27th 12:00).
  for (const day of ['20261127', '20261128', '20261129', '20261130', '20261201', '20261202']) expect(names).toContain(`history_notifications_d${day}`);
  for (const day of ['20261124', '20261125', '20261126']) expect(names).not.toContain(`history_notifications_d${day}`);
  for (const [d, r] of rows.entries()) {
    const kept = await store.get('t', r.id);
    if (d <= 3) expect(kept?.id).toBe(r.id);
    else expect(kept).toBeUndefined();
  }
  // Idempotent: a second run drops and creates nothing more.
  await store.maintainPartitions(now);
  expect(await partitions(url)).toEqual(names);
});
