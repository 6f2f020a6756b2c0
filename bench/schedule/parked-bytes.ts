import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { dueIndexKey } from '@notify/core';
import { ProcessGroup, ensurePostgresBinaries, makeTraffic, runOpenLoop, startPrivatePostgres, startProcessPlatform } from '@notify/platform-kit';

export interface ParkedBytesOptions {
  count: number;
  /** How far ahead they are scheduled (beyond the default park lead of 1 h). */
  aheadSeconds: number;
  inherited: Record<string, string>;
  dataDir: string;
  log: (line: string) => void;
}

const TENANT = 'bench';
const API_KEY = 'bench-key-000000000000000000001';

/**
 * Redis bytes per parked notification: `count` reminders scheduled `aheadSeconds` ahead against
 * a platform with the history on (its own PostgreSQL), measured once the parkers have moved
 * every one to PostgreSQL (used_memory delta over the count: the stubs, nothing else of theirs).
 */
export async function measureParkedBytes(o: ParkedBytesOptions): Promise<{ parked: number; bytesPerParked: number }> {
  await ensurePostgresBinaries({ env: process.env, log: o.log });
  const postgres = await startPrivatePostgres();
  const group = new ProcessGroup({ logDir: o.dataDir });
  try {
    const platform = await startProcessPlatform({
      group,
      inherited: o.inherited,
      workers: 1,
      apiKeys: `${API_KEY}:${TENANT}`,
      appEnv: { HISTORY_ENABLED: 'true', DATABASE_URL: postgres.url, SCHEDULE_PARK_INTERVAL_MS: '500', SCHEDULE_PARK_BATCH: '2000' },
      dataDir: join(o.dataDir, 'platform'),
    });
    const redis = new Redis(platform.redisUrl, { maxRetriesPerRequest: null });
    const db = new pg.Client({ connectionString: postgres.url });
    await db.connect();
    try {
      const used = async () => Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))?.[1] ?? 0);
      const parkedRows = async () => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM parked_notifications')).rows[0]?.n ?? 0);
      const sendAt = new Date(Date.now() + o.aheadSeconds * 1_000).toISOString();
      const items = makeTraffic({ seed: 28, urgentShare: 0, tag: `parked-${Date.now()}`, count: o.count });
      const before = await used();
      o.log(`posting ${o.count} reminders ${o.aheadSeconds} s ahead (history on: parked beyond 1 h)`);
      const posted = await runOpenLoop({
        apiUrl: platform.apiUrl,
        apiKey: API_KEY,
        ratePerSecond: 100_000,
        count: o.count,
        next: (i) => ({ ...items[i]!.request, sendAt }),
        mode: 'batch',
        maxInFlight: 4,
        whenFull: 'wait',
        keepAnswers: true,
      });
      const accepted = posted.answers.filter((a) => a.id).length;
      // Bounded: the parkers move ~thousands a second; a tenth of a second per thousand and a minute more.
      const deadline = Date.now() + 60_000 + accepted * 100;
      while ((await redis.zcard(dueIndexKey())) > 0 || (await parkedRows()) < accepted) {
        if (Date.now() > deadline) throw new Error('the parkers did not park every one in time');
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      return { parked: accepted, bytesPerParked: ((await used()) - before) / accepted };
    } finally {
      await db.end();
      redis.disconnect();
      await platform.stop();
    }
  } finally {
    await group.stopAll();
    await postgres.stop();
  }
}
