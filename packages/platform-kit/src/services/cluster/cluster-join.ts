import { CLUSTER_SLOTS } from '@notify/core';
import { waitFor } from '../wait-for';
import { CLUSTER_HOST, clusterInfo, nodesOf, onNode } from './cluster-nodes';

/** One freshly started node: its client port and its cluster bus port. */
export interface JoiningNode {
  port: number;
  busPort: number;
}

/** The `[first, last]` slot range of the i-th of `masters` masters, split as redis-cli splits them (0-5460, 5461-10922, 10923-16383 for 3). */
export function slotRangeOf(index: number, masters: number): [number, number] {
  const per = CLUSTER_SLOTS / masters;
  const lastOf = (i: number) => (i === masters - 1 ? CLUSTER_SLOTS - 1 : Math.min(CLUSTER_SLOTS - 1, Math.round(i * per + per - 1)));
  return [index === 0 ? 0 : lastOf(index - 1) + 1, lastOf(index)];
}

/**
 * Joins fresh nodes into one cluster with the commands `redis-cli --cluster create` sends, but
 * waiting on the nodes' own state instead of its one-second polls: a distinct config epoch and
 * a slot range for each of the first `masters` nodes, a MEET of every pair, and once every node
 * knows every other, each remaining node a replica of master `i % masters`.
 */
export async function joinCluster(nodes: readonly JoiningNode[], masters: number, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  if (nodes.length < masters) throw new Error(`a cluster of ${masters} masters needs at least ${masters} nodes (got ${nodes.length})`);
  // Distinct epochs from the start: no epoch collision to resolve by gossip before the slot map settles.
  await Promise.all(
    nodes.map((node, i) =>
      onNode(node.port, async (r) => {
        await r.call('CLUSTER', 'SET-CONFIG-EPOCH', i + 1);
        if (i < masters) await r.call('CLUSTER', 'ADDSLOTSRANGE', ...slotRangeOf(i, masters));
      }),
    ),
  );
  // Every pair met directly: nobody waits on gossip to hear of a third node.
  await Promise.all(
    nodes.map((node, i) =>
      onNode(node.port, async (r) => {
        for (const other of nodes.slice(0, i)) await r.call('CLUSTER', 'MEET', CLUSTER_HOST, other.port, other.busPort);
      }),
    ),
  );
  await waitFor(
    `all ${nodes.length} cluster nodes to know each other`,
    async () => {
      const met = await Promise.all(
        nodes.map(async (node) => {
          const info = await clusterInfo(node.port);
          if (Number(info.cluster_known_nodes) !== nodes.length) return false;
          return !(await nodesOf(node.port)).some((n) => n.flags.includes('handshake') || n.flags.includes('noaddr'));
        }),
      );
      return met.every(Boolean);
    },
    timeoutMs,
    50,
    signal,
  );
  const ids = await Promise.all(nodes.slice(0, masters).map((m) => onNode(m.port, (r) => r.call('CLUSTER', 'MYID') as Promise<string>)));
  await Promise.all(nodes.slice(masters).map((replica, j) => onNode(replica.port, (r) => r.call('CLUSTER', 'REPLICATE', ids[j % masters] as string))));
}
