import { waitClusterAgreed } from './cluster-health';
import { CLUSTER_HOST, liveMasters, onNode, type LiveNodes } from './cluster-nodes';

/** `redis-cli --cluster <args...>`, resolving with its output. */
export type ClusterCli = (args: readonly string[], timeoutMs?: number) => Promise<string>;

/**
 * `redis-cli --cluster reshard` of `move.slots` slots from the master on `move.from` to the one
 * on `move.to`, between two waits for every node to agree on the slot map (redis-cli refuses
 * to start while a previous move is still gossiping).
 */
export async function reshardSlots(nodes: LiveNodes, cli: ClusterCli, move: { from: number; to: number; slots: number }, ms = 120_000): Promise<string> {
  await waitClusterAgreed(nodes, ms);
  const now = await liveMasters(nodes);
  const from = now.find((m) => m.port === move.from);
  const to = now.find((m) => m.port === move.to);
  if (!from || !to) throw new Error(`reshard: ${from ? move.to : move.from} is not a master with slots`);
  const output = await cli(
    [
      'reshard',
      `${CLUSTER_HOST}:${move.from}`,
      '--cluster-from',
      from.id,
      '--cluster-to',
      to.id,
      '--cluster-slots',
      String(move.slots),
      // 50 keys a MIGRATE (default 10): a slot is open for less time, and multi-key scripts on it get TRYAGAIN for less time.
      '--cluster-pipeline',
      '50',
      '--cluster-yes',
    ],
    ms,
  );
  await waitClusterAgreed(nodes, ms);
  return output;
}

/**
 * Moves `slots` to the master on `to` the way redis-cli does it, slot by slot: IMPORTING on the
 * target, MIGRATING on the owner, MIGRATE of its keys in batches, then NODE on the target, the
 * owner and every other master. Slots the target holds already are skipped.
 */
export async function moveClusterSlots(nodes: LiveNodes, slots: readonly number[], to: number, ms = 120_000): Promise<{ slots: number; keys: number }> {
  await waitClusterAgreed(nodes, ms);
  const view = await liveMasters(nodes);
  const target = view.find((m) => m.port === to);
  if (!target) throw new Error(`moveSlots: ${to} is not a master with slots`);
  const deadline = Date.now() + ms;
  let moved = 0;
  let keys = 0;
  for (const slot of slots) {
    const source = view.find((m) => m.slots.some(([a, b]) => slot >= a && slot <= b));
    if (!source) throw new Error(`moveSlots: no master serves slot ${slot}`);
    if (source.port === to) continue;
    await onNode(
      to,
      (dst) =>
        onNode(
          source.port,
          async (src) => {
            // The order redis-cli uses: importing first, so an ASK from the owner always finds the target ready.
            await dst.call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', source.id);
            await src.call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', target.id);
            // New keys of this slot are created on the target (ASK), so the owner's list only shrinks.
            for (;;) {
              if (Date.now() > deadline) throw new Error(`moveSlots: slot ${slot} still has keys on ${source.port} after ${ms} ms`);
              const batch = (await src.call('CLUSTER', 'GETKEYSINSLOT', slot, 100)) as string[];
              if (batch.length === 0) break;
              await src.call('MIGRATE', CLUSTER_HOST, to, '', 0, 10_000, 'KEYS', ...batch);
              keys += batch.length;
            }
            await dst.call('CLUSTER', 'SETSLOT', slot, 'NODE', target.id);
            await src.call('CLUSTER', 'SETSLOT', slot, 'NODE', target.id);
          },
          ms,
        ),
      ms,
    );
    // Every other master learns the new owner now rather than by gossip (fewer MOVED to clients meanwhile).
    for (const other of view) {
      if (other.port !== to && other.port !== source.port) await onNode(other.port, (r) => r.call('CLUSTER', 'SETSLOT', slot, 'NODE', target.id));
    }
    moved += 1;
  }
  await waitClusterAgreed(nodes, ms);
  return { slots: moved, keys };
}
