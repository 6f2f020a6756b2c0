import { partitionOfId } from '@notify/core';
import type { IntakeDeps } from './intake-types';

/**
 * With replication on: WAIT until the replicas hold these notifications' records and first
 * jobs (they share their partition's slot, so one WAIT per partition covers them). Fewer
 * replicas in time: still accepted, counted as `short`. The WAIT itself failing (the
 * master's connection broke): the writes may be lost with it, so the request fails with a
 * 503 and the client's retry (idempotent) writes them again.
 */
export async function waitReplicated(deps: Pick<IntakeDeps, 'replication' | 'queues' | 'metrics'>, ids: readonly string[]): Promise<void> {
  const waiter = deps.replication;
  if (!waiter?.enabled || ids.length === 0) return;
  const byPartition = new Map<number, string[]>();
  for (const id of ids) {
    const p = partitionOfId(id, deps.queues.partitions);
    byPartition.set(p, [...(byPartition.get(p) ?? []), id]);
  }
  try {
    const results = await Promise.all([...byPartition].map(([p, written]) => waiter.afterWrite(p, written)));
    for (const result of results) deps.metrics.intakeReplication.inc({ result });
  } catch (error) {
    deps.metrics.intakeReplication.inc({ result: 'error' });
    throw error;
  }
}
