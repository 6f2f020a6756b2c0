import type { Logger } from 'pino';
import { dueIndexKey, notificationKey } from '@notify/core';
import type { ParkedRecord, ParkedStore } from '@notify/history';
import type { ScheduleMetrics } from '@notify/metrics';
import type { RedisClient } from '@notify/runtime';
import type { RecordFields } from './notification-record';
import { PeriodicPass, batchesUntilShort } from './periodic-pass';
import type { ParkCandidate, ParkOutcome, RestoreParkedArgs } from './scripts';

export interface ParkerConfig {
  /** How often to park and promote (0 turns the parker off: everything scheduled stays in Redis). */
  intervalMs: number;
  /** A scheduled notification due later than Redis's clock + this is parked in PostgreSQL. */
  parkLeadMs: number;
  /** A parked notification due before Redis's clock + this is brought back (less than parkLeadMs). */
  promoteLeadMs: number;
  /** Notifications per PostgreSQL statement and script call. */
  batch: number;
}

/** Batches per pass and direction at most: a pass never runs away; the next tick goes on. */
const MAX_BATCHES_PER_PASS = 20;

export interface ParkerDeps {
  redis: RedisClient;
  store: ParkedStore;
  scripts: {
    park: (candidates: readonly ParkCandidate[], promoteLeadMs: number) => Promise<ParkOutcome[]>;
    restore: (args: RestoreParkedArgs) => Promise<('restored' | 'not-parked')[]>;
  };
  logger: Logger;
  config: ParkerConfig;
  metrics?: Pick<ScheduleMetrics, 'parked' | 'promoted'>;
  partition: number;
}

/**
 * Keeps one partition's far-future schedules out of Redis (docs/scheduling.md, "Parking"). Park:
 * the due-index entries later than the park lead are read, written to PostgreSQL, then replaced
 * by their stubs in one script call (park-1, only if still scheduled and unchanged); the rows of
 * those it kept are deleted. Promote: the rows due within the promote lead are restored by one
 * script call (restore-parked-2, only if the stub is still there), then deleted. Between any two
 * steps a crash leaves a row whose stub is gone or never came: a stale row, deleted when its time
 * comes, never restored (the stub decides), so nothing is lost or doubled. Due-ness is Redis's clock.
 */
export class Parker {
  private readonly loop: PeriodicPass<{ parked: number; promoted: number }>;

  constructor(private readonly deps: ParkerDeps) {
    this.loop = new PeriodicPass({
      intervalMs: deps.config.intervalMs,
      pass: async () => ({ parked: await this.parkAll(), promoted: await this.promoteAll() }),
      logger: deps.logger,
      failure: 'parking of scheduled notifications failed; will try again',
    });
  }

  start(): void {
    this.loop.start();
  }

  /** One pass: park, then promote; returns how many of each. */
  runPass(): Promise<{ parked: number; promoted: number }> {
    return this.loop.run();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async redisNowMs(): Promise<number> {
    const [seconds, micros] = await this.deps.redis.time();
    return Number(seconds) * 1_000 + Math.floor(Number(micros) / 1_000);
  }

  private parkAll(): Promise<number> {
    return batchesUntilShort(
      MAX_BATCHES_PER_PASS,
      this.deps.config.batch,
      async () => {
        const { read, parked } = await this.parkBatch();
        return { read, done: parked };
      },
      true,
    );
  }

  /** Reads one batch of far-future entries, writes their bodies, parks them; the rows of the ones kept go again. */
  async parkBatch(): Promise<{ read: number; parked: number }> {
    const { redis, store, scripts, config, partition } = this.deps;
    const now = await this.redisNowMs();
    const ids = await redis.zrangebyscore(dueIndexKey(partition), `(${now + config.parkLeadMs}`, '+inf', 'LIMIT', 0, config.batch);
    if (ids.length === 0) return { read: 0, parked: 0 };
    const pipeline = redis.pipeline();
    for (const id of ids) pipeline.hgetall(notificationKey(id, partition)).call('PEXPIRETIME', notificationKey(id, partition));
    const replies = (await pipeline.exec()) ?? [];
    const records: ParkedRecord[] = [];
    ids.forEach((id, i) => {
      const fields = replies[2 * i]?.[1] as RecordFields | undefined;
      const expireAt = Number(replies[2 * i + 1]?.[1]);
      if (fields?.status !== 'scheduled' || !fields.tenant || !fields.eventId) return;
      records.push({ id, partition, tenant: fields.tenant, eventId: fields.eventId, sendAt: Number(fields.sendAt), expireAt, fields });
    });
    if (records.length === 0) return { read: ids.length, parked: 0 };
    await store.put(records);
    const outcomes = await scripts.park(
      records.map((r) => ({ id: r.id, fieldCount: Object.keys(r.fields).length })),
      config.promoteLeadMs,
    );
    await store.remove(records.filter((_, i) => outcomes[i] === 'kept').map((r) => r.id));
    const parked = outcomes.filter((o) => o === 'parked').length;
    this.deps.metrics?.parked.inc(parked);
    return { read: ids.length, parked };
  }

  private promoteAll(): Promise<number> {
    return batchesUntilShort(MAX_BATCHES_PER_PASS, this.deps.config.batch, async () => {
      const { read, promoted } = await this.promoteBatch();
      return { read, done: promoted };
    });
  }

  /** Restores one batch of rows due within the promote lead, then deletes them (a stale one is only deleted). */
  async promoteBatch(): Promise<{ read: number; promoted: number }> {
    const { store, scripts, config, partition } = this.deps;
    const rows = await store.due(partition, (await this.redisNowMs()) + config.promoteLeadMs, config.batch);
    if (rows.length === 0) return { read: 0, promoted: 0 };
    const outcomes = await scripts.restore({ mode: 'promote', bodies: rows });
    await store.remove(rows.map((r) => r.id));
    const promoted = outcomes.filter((o) => o === 'restored').length;
    this.deps.metrics?.promoted.inc(promoted);
    return { read: rows.length, promoted };
  }
}
