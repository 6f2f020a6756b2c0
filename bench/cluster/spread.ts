import { Redis } from 'ioredis';
import { redisCost, sampleRedis, type RedisSample } from '../pipeline/redis-info';

/** One data node (the one redis-server, or a cluster master) as the bench samples it. */
export interface DataNode {
  label: string;
  redis: Redis;
}

export interface NodeSample {
  redis: RedisSample;
  usedMemory: number;
  keys: number;
}

/** INFO (cpu, commands, memory) and DBSIZE of each node. */
export async function sampleNodes(nodes: readonly DataNode[]): Promise<NodeSample[]> {
  return Promise.all(
    nodes.map(async (n) => {
      const [redis, memory, keys] = await Promise.all([sampleRedis(n.redis), n.redis.info('memory'), n.redis.dbsize()]);
      return { redis, usedMemory: Number(/^used_memory:(\d+)/m.exec(memory)?.[1] ?? 0), keys };
    }),
  );
}

export interface NodeSpread {
  label: string;
  cpuSeconds: number;
  /** Of the summed Redis CPU of every node listed (1 = all of it). */
  cpuShare: number;
  keys: number;
  keysShare: number;
  usedMemoryDelta: number;
  scriptCalls: number;
}

export interface Spread {
  nodes: NodeSpread[];
  cpuSeconds: number;
  /** Keys at the end, and keys added between the samples. */
  keys: number;
  keysDelta: number;
  usedMemoryDelta: number;
  scriptCalls: number;
  commands: number;
  /** Largest |share − 1/n| / (1/n) over the nodes, for CPU and for keys (0.2 = within ±20 %). */
  cpuDeviation: number;
  keysDeviation: number;
}

/** What each node spent between two samples, and its share of the whole. */
export function spreadOf(nodes: readonly DataNode[], before: readonly NodeSample[], after: readonly NodeSample[]): Spread {
  const rows = nodes.map((n, i) => {
    const a = before[i] as NodeSample;
    const b = after[i] as NodeSample;
    const cost = redisCost(a.redis, b.redis);
    return { label: n.label, cost, keys: b.keys, keysDelta: b.keys - a.keys, usedMemoryDelta: b.usedMemory - a.usedMemory };
  });
  const cpuSeconds = rows.reduce((s, r) => s + r.cost.cpuSeconds, 0);
  const keys = rows.reduce((s, r) => s + r.keys, 0);
  const even = 1 / Math.max(1, rows.length);
  const out: NodeSpread[] = rows.map((r) => ({
    label: r.label,
    cpuSeconds: r.cost.cpuSeconds,
    cpuShare: cpuSeconds > 0 ? r.cost.cpuSeconds / cpuSeconds : 0,
    keys: r.keys,
    keysShare: keys > 0 ? r.keys / keys : 0,
    usedMemoryDelta: r.usedMemoryDelta,
    scriptCalls: r.cost.scriptCalls,
  }));
  const deviation = (share: (n: NodeSpread) => number) => Math.max(0, ...out.map((n) => Math.abs(share(n) - even) / even));
  return {
    nodes: out,
    cpuSeconds,
    keys,
    keysDelta: rows.reduce((s, r) => s + r.keysDelta, 0),
    usedMemoryDelta: rows.reduce((s, r) => s + r.usedMemoryDelta, 0),
    scriptCalls: rows.reduce((s, r) => s + r.cost.scriptCalls, 0),
    commands: rows.reduce((s, r) => s + r.cost.commands, 0),
    cpuDeviation: deviation((n) => n.cpuShare),
    keysDeviation: deviation((n) => n.keysShare),
  };
}

/** A plain connection to one node (INFO, DBSIZE: never a cluster-routed command). */
export function nodeConnection(host: string, port: number): Redis {
  const redis = new Redis({ host, port, maxRetriesPerRequest: 2, lazyConnect: false });
  redis.on('error', () => undefined);
  return redis;
}

/** A key's family: partition tags as `{p}`, other tags kept, ids and numbers as `*` (`{p}:n:*`, `{p}:q:push-urgent:*`, `{notify:procs}:proc:*`). */
export function keyFamily(key: string): string {
  return key
    .replace(/^\{notify(?::\d+:\d+)?\}/, '{p}')
    .replace(/[0-9a-f]{8,}/g, '*')
    .replace(/\d+/g, '*');
}

export interface KeyCensus {
  /** Keys per family, most first. */
  families: [string, number][];
  /** Keys per hash tag (`{notify:3:611}`, `{notify:procs}`, `(none)`), most first. */
  tags: [string, number][];
  scanned: number;
}

/** Keys per family and per hash tag on one node (SCAN: the node's own keys), at most `limit` keys. */
export async function keyCensus(redis: Redis, limit = 500_000): Promise<KeyCensus> {
  const families = new Map<string, number>();
  const tags = new Map<string, number>();
  const bump = (map: Map<string, number>, k: string) => map.set(k, (map.get(k) ?? 0) + 1);
  let cursor = '0';
  let scanned = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'COUNT', 1_000);
    cursor = next;
    for (const key of keys) {
      bump(families, keyFamily(key));
      bump(tags, /^\{[^}]+\}/.exec(key)?.[0] ?? '(none)');
    }
    scanned += keys.length;
  } while (cursor !== '0' && scanned < limit);
  const sorted = (map: Map<string, number>) => [...map.entries()].sort((a, b) => b[1] - a[1]);
  return { families: sorted(families), tags: sorted(tags), scanned };
}
