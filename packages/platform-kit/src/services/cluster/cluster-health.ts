import { CLUSTER_SLOTS } from '@notify/core';
import { waitFor } from '../wait-for';
import { clusterInfo, liveMasters, mastersOf, nodesOf, onNode, type LiveNodes } from './cluster-nodes';

/** cluster_state:ok and every slot served on every live node, all agreeing on live masters, every replica linked. */
async function healthy(nodes: LiveNodes): Promise<boolean> {
  // The nodes are asked side by side: one poll costs one round trip, not one per node.
  const verdicts = await Promise.all(nodes.livePorts().map((port) => nodeHealthy(nodes, port)));
  return verdicts.every(Boolean);
}

async function nodeHealthy(nodes: LiveNodes, port: number): Promise<boolean> {
  const info = await clusterInfo(port);
  if (info.cluster_state !== 'ok' || Number(info.cluster_slots_ok) !== CLUSTER_SLOTS) return false;
  // Every node agrees on who the masters are (no stale view of a failed-over master).
  const view = mastersOf(await nodesOf(port));
  if (view.some((m) => !nodes.isAlive(m.port))) return false;
  if (view.reduce((a, m) => a + m.slotCount, 0) !== CLUSTER_SLOTS) return false;
  // A live replica has its master link up (a promotion needs an in-sync replica).
  const replication = await onNode(port, (r) => r.info('replication'));
  return !(replication.includes('role:slave') && !replication.includes('master_link_status:up'));
}

export async function waitClusterHealthy(nodes: LiveNodes, ms = nodes.timeoutMs): Promise<void> {
  await waitFor('the Redis Cluster healthy (cluster_state:ok, every slot served, replicas linked)', () => healthy(nodes), ms, 100, nodes.signal);
}

/** A node's view of the slot map: every master's id and slot ranges, or undefined while one of its slots is open. */
async function slotMapOf(port: number): Promise<string | undefined> {
  const view = await nodesOf(port);
  if (view.some((n) => n.openSlots > 0)) return undefined;
  return view
    .filter((n) => n.flags.includes('master') && n.slots.length > 0)
    .map((n) => `${n.id}:${n.slots.map(([a, b]) => `${a}-${b}`).join(',')}`)
    .sort()
    .join(' ');
}

export async function waitClusterAgreed(nodes: LiveNodes, ms = nodes.timeoutMs): Promise<void> {
  await waitFor(
    'every cluster node to agree on the slot map (no slot open)',
    async () => {
      const maps = await Promise.all(nodes.livePorts().map((port) => slotMapOf(port)));
      return maps.every((m) => m !== undefined && m === maps[0]);
    },
    ms,
    100,
    nodes.signal,
  );
}

/**
 * SIGKILLs (through `kill`) the master serving the i-th slot range and waits until one of its
 * live replicas serves that range and every live node says cluster_state:ok.
 */
export async function failOverMaster(nodes: LiveNodes, index: number, kill: (port: number) => Promise<void>): Promise<{ killed: number; promoted: number }> {
  const before = await liveMasters(nodes);
  const victim = before[index];
  if (!victim) throw new Error(`no master #${index} (the cluster has ${before.length})`);
  const candidates = victim.replicas.filter((p) => nodes.isAlive(p));
  if (candidates.length === 0) throw new Error(`master on port ${victim.port} has no live replica: killing it would leave slots unserved`);
  await kill(victim.port);
  const promoted = await waitFor(
    `a replica of ${victim.port} promoted`,
    async () => {
      const now = await liveMasters(nodes);
      const taker = now.find((m) => candidates.includes(m.port) && m.slots[0]?.[0] === victim.slots[0]?.[0]);
      if (!taker) return undefined;
      const states = await Promise.all(nodes.livePorts().map(async (port) => (await clusterInfo(port)).cluster_state));
      return states.every((state) => state === 'ok') ? taker.port : undefined;
    },
    nodes.timeoutMs,
    100,
    nodes.signal,
  );
  return { killed: victim.port, promoted };
}
