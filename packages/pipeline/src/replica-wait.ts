import { NotifyError, notificationKey, pendingIntakeKey } from '@notify/core';
import { isCluster, type RedisClient } from '@notify/runtime';

export interface ReplicaWaitConfig {
  /** Replicas that must hold an intake's write before its 202 (`INTAKE_WAIT_REPLICAS`); 0 = no WAIT. */
  replicas: number;
  /** How long one WAIT may block (`INTAKE_WAIT_TIMEOUT_MS`). */
  timeoutMs: number;
}

export type ReplicaWaitResult = 'replicated' | 'short';

/**
 * `WAIT <replicas> <timeout>` after intake writes, before their 202 (docs/partitions.md).
 * Redis replicates asynchronously: a master that dies right after answering can take an
 * accepted notification with it unless a replica already has it. WAIT blocks the connection it
 * is sent on until every earlier write of that connection reached `replicas` replicas (or the
 * timeout). The api shares one connection per master, so WAITs are grouped: at most one is in
 * flight per partition, and every intake finished while it is in flight waits for the next one,
 * which covers all of them (a group commit: one WAIT round trip per batch, not per request).
 * On a cluster the WAIT goes to the master of the partition's slot, on the connection the
 * intake used (a one-slot pipeline with a read of the partition's pending set, then WAIT).
 *
 * Fewer replicas than asked within the timeout (a replica down or slow): the write is on the
 * master, so the notification is still accepted; the result says `short` and the caller counts
 * it. Refusing (503) would make clients retry something that is most likely delivered, and
 * turn a replica outage into an intake outage.
 *
 * A failover between the write and the WAIT: ioredis retries the WAIT's pipeline on the
 * promoted replica, which may not hold the write (it died with the old master) and has no
 * replica yet, so WAIT alone would answer `short` and the 202 would promise a notification that
 * no longer exists. So on a cluster the pipeline first asks EXISTS of the records of every
 * intake the WAIT covers, on the node that answers the WAIT: a record missing there fails those
 * intakes with 503 (DEPENDENCY_UNAVAILABLE), and the client's retry writes them again.
 */
export class ReplicaWaiter {
  private readonly groups = new Map<number, { inFlight?: Round; next?: Round }>();

  constructor(
    private readonly redis: RedisClient,
    readonly config: ReplicaWaitConfig,
  ) {}

  get enabled(): boolean {
    return this.config.replicas > 0;
  }

  /**
   * Waits until the writes this process made to `partition` so far reached the replicas (or the
   * timeout). `ids`: the notifications of this partition written (their records are checked on
   * the node that answers, on a cluster).
   */
  async afterWrite(partition: number, ids: readonly string[] = []): Promise<ReplicaWaitResult> {
    if (!this.enabled) return 'replicated';
    const acknowledged = await this.grouped(isCluster(this.redis) ? partition : 0, partition, ids);
    return acknowledged >= this.config.replicas ? 'replicated' : 'short';
  }

  private grouped(group: number, partition: number, ids: readonly string[]): Promise<number> {
    let state = this.groups.get(group);
    if (!state) {
      state = {};
      this.groups.set(group, state);
    }
    const s = state;
    if (!s.inFlight) {
      const round: Round = { partition, ids: [...ids] };
      round.reply = this.send(round).finally(() => {
        s.inFlight = undefined;
      });
      s.inFlight = round;
      return round.reply;
    }
    // The WAIT in flight may have reached Redis before this write: the next one covers it.
    if (!s.next) {
      const next: Round = { partition, ids: [] };
      const previous = s.inFlight.reply as Promise<number>;
      next.reply = previous
        .catch(() => 0)
        .then(() => {
          s.next = undefined;
          if (s.inFlight) return this.grouped(group, next.partition, next.ids);
          s.inFlight = next;
          return this.send(next).finally(() => {
            s.inFlight = undefined;
          });
        });
      s.next = next;
    }
    s.next.ids.push(...ids);
    return s.next.reply as Promise<number>;
  }

  private async send(round: Round): Promise<number> {
    const { replicas, timeoutMs } = this.config;
    if (!isCluster(this.redis)) return Number(await this.redis.wait(replicas, timeoutMs));
    // A pipeline goes to one node: the master of its keyed commands' slot, on the connection
    // every command for that slot uses. The keyless WAIT follows the EXISTS there.
    const cluster = this.redis;
    const keys = round.ids.length > 0 ? round.ids.map((id) => notificationKey(id, round.partition)) : [pendingIntakeKey(round.partition)];
    for (let attempt = 1; ; attempt += 1) {
      const rows =
        (await cluster
          .pipeline()
          .exists(...keys)
          .wait(replicas, timeoutMs)
          .exec()) ?? [];
      const [existsError, present] = rows[0] ?? [new Error('no reply to EXISTS')];
      // ioredis re-sends a cluster pipeline after MOVED/ASK/TRYAGAIN only when its other commands
      // are reads; WAIT is not one, so a slot that moved (a failover, a reshard) comes back here:
      // the WAIT went to a node that is not the slot's master. Ask again, bounded, then 503.
      if (existsError && /^(MOVED|ASK|TRYAGAIN) /.test(existsError.message)) {
        if (attempt >= REDIRECTED_ROUNDS) {
          throw new NotifyError('DEPENDENCY_UNAVAILABLE', 'the queue store (Redis) is moving this partition: retry with the same event id (idempotent)', {
            cause: existsError,
          });
        }
        if (existsError.message.startsWith('MOVED')) await new Promise<void>((resolve) => cluster.refreshSlotsCache(() => resolve()));
        else await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      if (existsError) throw existsError;
      const [error, value] = rows[1] ?? [new Error('no reply to WAIT')];
      if (error) throw error;
      if (round.ids.length > 0 && Number(present) < keys.length) {
        throw new NotifyError(
          'DEPENDENCY_UNAVAILABLE',
          'the queue store (Redis) failed over while accepting: retry with the same event id (idempotent: it is accepted at most once)',
        );
      }
      return Number(value);
    }
  }
}

/** Rounds of EXISTS + WAIT sent again after a redirection before the intake answers 503 (~3 s). */
const REDIRECTED_ROUNDS = 30;

/** One WAIT: the partition it goes to and the notifications whose records it checks. */
interface Round {
  partition: number;
  ids: string[];
  reply?: Promise<number>;
}
