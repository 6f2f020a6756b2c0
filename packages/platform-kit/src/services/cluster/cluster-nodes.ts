import type { Redis } from 'ioredis';
import { withRedisProbe } from '@notify/runtime';

export const CLUSTER_HOST = '127.0.0.1';

/** A master as the cluster sees it now: its slot ranges and its replicas. */
export interface ClusterMaster {
  port: number;
  id: string;
  /** [first, last] inclusive. */
  slots: [number, number][];
  slotCount: number;
  replicas: number[];
}

/** One line of `CLUSTER NODES`. */
export interface NodeLine {
  id: string;
  port: number;
  flags: string[];
  masterId: string;
  linkState: string;
  slots: [number, number][];
  /** Slots this node is migrating or importing (shown only in the node's own line). */
  openSlots: number;
}

/** One admin command on one node (a fresh connection: nodes die and come back in these tests). */
export async function onNode<T>(port: number, run: (redis: Redis) => Promise<T>, timeoutMs = 2_000, host = CLUSTER_HOST): Promise<T> {
  return withRedisProbe({ host, port }, run, { connectTimeoutMs: timeoutMs, commandTimeoutMs: timeoutMs });
}

/** `CLUSTER INFO` of the node on `host:port` (default 127.0.0.1) as a map; rejects when it does not answer or has cluster support off. */
export async function clusterInfo(port: number, host = CLUSTER_HOST, timeoutMs = 2_000): Promise<Record<string, string>> {
  const text = await onNode(port, (r) => r.cluster('INFO'), timeoutMs, host);
  return Object.fromEntries(
    text
      .split('\r\n')
      .filter((l) => l.includes(':'))
      .map((l) => l.split(':', 2) as [string, string]),
  );
}

/** Parses `CLUSTER NODES` (id ip:port@cport flags master ping pong epoch link slots...). */
export function parseClusterNodes(text: string): NodeLine[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line) => {
      const [id = '', address = '', flags = '', masterId = '', , , , linkState = '', ...slotFields] = line.trim().split(' ');
      const port = Number(address.split('@')[0]?.split(':').at(-1));
      // `[slot->-id]` / `[slot-<-id]` fields are slots being migrated or imported (openSlots).
      const slots = slotFields
        .filter((s) => !s.startsWith('['))
        .map((s) => {
          const [a, b] = s.split('-');
          return [Number(a), Number(b ?? a)] as [number, number];
        });
      return { id, port, flags: flags.split(','), masterId, linkState, slots, openSlots: slotFields.filter((s) => s.startsWith('[')).length };
    });
}

/** `CLUSTER NODES` of the node on `port`, parsed. */
export async function nodesOf(port: number): Promise<NodeLine[]> {
  return parseClusterNodes(await onNode(port, (r) => r.cluster('NODES') as Promise<string>));
}

/** The masters serving slots in `text` (CLUSTER NODES of one node), by first slot. */
export function mastersOf(nodes: NodeLine[]): ClusterMaster[] {
  const live = (n: NodeLine) => !n.flags.includes('fail') && !n.flags.includes('fail?') && !n.flags.includes('noaddr');
  return nodes
    .filter((n) => n.flags.includes('master') && n.slots.length > 0 && live(n))
    .map((n) => ({
      port: n.port,
      id: n.id,
      slots: n.slots,
      slotCount: n.slots.reduce((a, [x, y]) => a + y - x + 1, 0),
      replicas: nodes.filter((r) => r.masterId === n.id && r.flags.includes('slave') && live(r)).map((r) => r.port),
    }))
    .sort((a, b) => (a.slots[0]?.[0] ?? 0) - (b.slots[0]?.[0] ?? 0));
}

/** The nodes of a running cluster as its operations see them: which are up now, and how long to wait. */
export interface LiveNodes {
  livePorts(): number[];
  isAlive(port: number): boolean;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
}

/** CLUSTER NODES of the first live node that answers. */
export async function liveView(nodes: LiveNodes): Promise<NodeLine[]> {
  let lastError: unknown;
  for (const port of nodes.livePorts()) {
    try {
      return await nodesOf(port);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError instanceof Error ? lastError : new Error('no live cluster node answers');
}

/** The current masters with slots, ordered by their first slot. */
export async function liveMasters(nodes: LiveNodes): Promise<ClusterMaster[]> {
  return mastersOf(await liveView(nodes));
}
