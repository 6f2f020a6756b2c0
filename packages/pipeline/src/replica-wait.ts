import { pendingIntakeKey } from '@notify/core';
import { isCluster, type RedisClient } from '@notify/runtime';

export interface ReplicaWaitConfig {
  /** Replicas that must hold an intake's write before its 202 (`INTAKE_WAIT_REPLICAS`); 0 = no WAIT. */
  replicas: number;
  /** How long one WAIT may block (`INTAKE_WAIT_TIMEOUT_MS`). */
  timeoutMs: number;
}

export type ReplicaWaitResult = 'replicated' | 'short';

/**
 * `WAIT <replicas> <timeout>` after intake writes, before their 202 (issue 13.4; docs/partitions.md).
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
 */
export class ReplicaWaiter {
  private readonly groups = new Map<number, { inFlight?: Promise<number>; next?: Promise<number> }>();

  constructor(
    private readonly redis: RedisClient,
    readonly config: ReplicaWaitConfig,
  ) {}

  get enabled(): boolean {
    return this.config.replicas > 0;
  }

  /** Waits until the writes this process made to `partition` so far reached the replicas (or the timeout). */
  async afterWrite(partition: number): Promise<ReplicaWaitResult> {
    if (!this.enabled) return 'replicated';
    const acknowledged = await this.grouped(isCluster(this.redis) ? partition : 0, partition);
    return acknowledged >= this.config.replicas ? 'replicated' : 'short';
  }

  private grouped(group: number, partition: number): Promise<number> {
    let state = this.groups.get(group);
    if (!state) {
      state = {};
      this.groups.set(group, state);
    }
    const s = state;
    if (!s.inFlight) {
      s.inFlight = this.send(partition).finally(() => {
        s.inFlight = undefined;
      });
      return s.inFlight;
    }
    // The WAIT in flight may have reached Redis before this write: the next one covers it.
    s.next ??= s.inFlight
      .catch(() => 0)
      .then(() => {
        s.next = undefined;
        return this.grouped(group, partition);
      });
    return s.next;
  }

  private async send(partition: number): Promise<number> {
    const { replicas, timeoutMs } = this.config;
    if (!isCluster(this.redis)) return Number(await this.redis.wait(replicas, timeoutMs));
    // A pipeline goes to one node: the master of its keyed commands' slot, on the connection
    // every command for that slot uses. The keyless WAIT follows the EXISTS there.
    const rows = (await this.redis.pipeline().exists(pendingIntakeKey(partition)).wait(replicas, timeoutMs).exec()) ?? [];
    const [error, value] = rows[1] ?? [new Error('no reply to WAIT')];
    if (error) throw error;
    return Number(value);
  }
}
