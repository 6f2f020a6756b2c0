import type pg from 'pg';

export const DAY_MS = 86_400_000;
/** Transaction advisory lock for partition DDL: two processes creating the same day wait for each other. */
export const PARTITION_LOCK_KEY = 7_120_012_002;
const PARENT = 'history_notifications';
const NAME = /^history_notifications_d(\d{8})$/;

export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

function dayName(day: number): string {
  return `${PARENT}_d${new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

function dayFromName(name: string): number | undefined {
  const m = NAME.exec(name);
  if (!m) return undefined;
  const s = m[1] as string;
  return dayOf(Date.UTC(Number(s.slice(0, 4)), Number(s.slice(4, 6)) - 1, Number(s.slice(6, 8))));
}

async function inLockedTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [PARTITION_LOCK_KEY]);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function existingDays(client: pg.PoolClient): Promise<number[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = $1::regclass`,
    [PARENT],
  );
  return rows.map((r) => dayFromName(r.name)).filter((d): d is number => d !== undefined);
}

/** Creates the daily partitions missing among `days`; returns every day that now has one. */
export async function ensurePartitions(pool: pg.Pool, days: Iterable<number>): Promise<number[]> {
  return inLockedTransaction(pool, async (client) => {
    const have = new Set(await existingDays(client));
    for (const day of days) {
      if (have.has(day)) continue;
      const from = new Date(day * DAY_MS).toISOString();
      const to = new Date((day + 1) * DAY_MS).toISOString();
      await client.query(`CREATE TABLE ${dayName(day)} PARTITION OF ${PARENT} FOR VALUES FROM ('${from}') TO ('${to}')`);
      have.add(day);
    }
    return [...have];
  });
}

/**
 * Creates today's partition and `ahead` more, and drops every partition whose whole day is
 * older than the retention (a row lives retentionDays to retentionDays + 1 days: dropping a
 * partition is instant and leaves no dead rows, where DELETE would bloat and vacuum).
 */
export async function maintain(pool: pg.Pool, nowMs: number, retentionDays: number, ahead: number): Promise<{ kept: number[]; dropped: number[] }> {
  const today = dayOf(nowMs);
  const wanted = Array.from({ length: ahead + 1 }, (_, i) => today + i);
  const created = await ensurePartitions(pool, wanted);
  const cutoffMs = nowMs - retentionDays * DAY_MS;
  return inLockedTransaction(pool, async (client) => {
    const dropped: number[] = [];
    for (const day of await existingDays(client)) {
      if ((day + 1) * DAY_MS > cutoffMs) continue;
      await client.query(`DROP TABLE IF EXISTS ${dayName(day)}`);
      dropped.push(day);
    }
    return { kept: created.filter((d) => !dropped.includes(d)), dropped };
  });
}
