/**
 * Redis CPU of each archival step alone (INFO cpu of the server, µs per record), on records
 * seeded through the pipeline's scripts: the claim (with and without the records), a pipelined
 * HGETALL per record, and the compact. A diagnostic for docs/benchmarks-history.md.
 *   npx tsx bench/history/redis-steps.ts [--count 20000] [--batch 1000]
 */
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { archiveQueueKey, notificationKey } from '@notify/core';
import { loadScripts } from '@notify/pipeline';
import { startPrivateRedis } from '@notify/platform-kit';
import { seedTerminalNotifications } from './redis-side';

async function cpuMicros(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const v = (name: string) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)?.[1] ?? 0);
  return (v('used_cpu_user') + v('used_cpu_sys')) * 1e6;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { count: { type: 'string', default: '20000' }, batch: { type: 'string', default: '1000' } }, strict: true });
  const count = Number(values.count);
  const batch = Number(values.batch);
  const server = await startPrivateRedis({ persistence: 'none' });
  const redis = new Redis(server.url);
  try {
    const scripts = loadScripts(redis, { archive: true });
    const ids = await seedTerminalNotifications(scripts, count);
    const step = async (name: string, work: () => Promise<void>) => {
      const before = await cpuMicros(redis);
      await work();
      process.stdout.write(`${name.padEnd(44)} ${((await cpuMicros(redis)) - before) / count} µs/record\n`);
    };
    const batches = async (fn: (slice: string[]) => Promise<unknown>) => {
      for (let i = 0; i < ids.length; i += batch) await fn(ids.slice(i, i + batch));
    };
    const requeue = () => redis.zadd(archiveQueueKey(), ...ids.flatMap((id) => [0, id]));
    await step('claim (ids only; ZRANGEBYSCORE + ZADD XX)', () =>
      batches(async () => {
        await scripts.claimArchive({ batchSize: batch, leaseMs: 600_000 });
      }),
    );
    await requeue();
    await step('claim with records (Lua HGETALL each)', () =>
      batches(async () => {
        await scripts.claimArchive({ batchSize: batch, leaseMs: 600_000 });
      }),
    );
    await requeue();
    await step('pipelined HGETALL each (no claim)', () =>
      batches(async (slice) => {
        const p = redis.pipeline();
        for (const id of slice) p.hgetall(notificationKey(id));
        await p.exec();
      }),
    );
    await step('compact (HMGET, HSET, DEL, ZREM)', () =>
      batches(async (slice) => {
        await scripts.compactArchived({ ids: slice, idempotencyWindowSeconds: 7 * 86_400 });
      }),
    );
  } finally {
    await redis.quit();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
