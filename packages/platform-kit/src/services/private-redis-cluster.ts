import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { ProcessGroup } from '../processes/process-group';
import { freePort } from './free-port';
import { startPrivateRedis, type PrivateRedis } from './private-redis';
import type { PrivateService } from './private-service';
import { waitFor } from './wait-for';

/** Redis Cluster's slot count (CRC16(key) mod 16384). */
export const CLUSTER_SLOTS = 16_384;

/** One redis-server of the cluster, as started (its role changes with failovers: ask `topology()`). */
export interface ClusterNodeProcess {
  readonly host: string;
  readonly port: number;
  readonly url: string;
  /** The server process is alive (false after `kill`, until `restart`). */
  readonly running: boolean;
}

/** A master as the cluster sees it now: its slot ranges and its replicas. */
export interface ClusterMaster {
  port: number;
  id: string;
  /** [first, last] inclusive. */
  slots: [number, number][];
  slotCount: number;
  replicas: number[];
}

export interface PrivateRedisCluster extends PrivateService {
  /** Every node started (masters first, then replicas), in start order. */
  readonly nodes: readonly ClusterNodeProcess[];
  /** `127.0.0.1:port,...` of every node: what REDIS_CLUSTER_NODES takes. */
  readonly nodesEnv: string;
  /** The current masters with slots (from CLUSTER NODES of a live node), ordered by their first slot. */
  masters(): Promise<ClusterMaster[]>;
  /**
   * SIGKILLs the master currently serving the i-th slot range (masters() order) and waits until
   * one of its replicas is promoted and the cluster covers every slot again. Refuses a master
   * without a live replica (the cluster would stay down).
   */
  killMaster(index: number): Promise<{ killed: number; promoted: number }>;
  /** DBSIZE of every current master, in masters() order. */
  masterKeys(): Promise<{ port: number; keys: number }[]>;
  /** SIGKILLs the node on `port` (a crash; nothing else is waited for). */
  kill(port: number): Promise<void>;
  /** Starts the node on `port` again (same directory and nodes.conf: it rejoins; a failed-over master as a replica) and waits until it is in sync. */
  restart(port: number): Promise<void>;
  /** Waits for cluster_state:ok on every running node, every slot served, and every replica linked to its master. */
  waitHealthy(timeoutMs?: number): Promise<void>;
  /** Runs `redis-cli --cluster <args...>` (reshard, rebalance, check), resolving with its output; rejects on a non-zero exit. */
  cli(args: readonly string[], timeoutMs?: number): Promise<string>;
}

export interface PrivateRedisClusterOptions {
  /** Masters (default 3); each gets `replicasPerMaster` replicas (default 1). */
  masters?: number;
  replicasPerMaster?: number;
  /**
   * cluster-node-timeout in ms (default 2000): how long a node may be unreachable before it is
   * failed over. Short for tests; the machine is shared and a starved node must not be failed
   * over while healthy, so not much shorter.
   */
  nodeTimeoutMs?: number;
  /** Append-only file on (default; a failover test's killed master restarts from it) or no persistence (benches). */
  persistence?: 'aof' | 'none';
  /** Extra redis-server arguments for every node. */
  args?: string[];
  /** The group to start the nodes in; default a group of its own (stopped by stop()). */
  group?: ProcessGroup;
  env?: Record<string, string | undefined>;
  redisServer?: string;
  redisCli?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

const HOST = '127.0.0.1';

/** One admin command on one node (a fresh connection: nodes die and come back in these tests). */
async function onNode<T>(port: number, run: (redis: Redis) => Promise<T>, timeoutMs = 2_000): Promise<T> {
  const redis = new Redis({
    host: HOST,
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await run(redis);
  } finally {
    redis.disconnect();
  }
}

/** `CLUSTER INFO` as a map. */
export async function clusterInfo(port: number): Promise<Record<string, string>> {
  const text = await onNode(port, (r) => r.cluster('INFO'));
  return Object.fromEntries(
    text
      .split('\r\n')
      .filter((l) => l.includes(':'))
      .map((l) => l.split(':', 2) as [string, string]),
  );
}

interface NodeLine {
  id: string;
  port: number;
  flags: string[];
  masterId: string;
  linkState: string;
  slots: [number, number][];
}

/** Parses `CLUSTER NODES` (id ip:port@cport flags master ping pong epoch link slots...). */
export function parseClusterNodes(text: string): NodeLine[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line) => {
      const [id = '', address = '', flags = '', masterId = '', , , , linkState = '', ...slotFields] = line.trim().split(' ');
      const port = Number(address.split('@')[0]?.split(':').at(-1));
      const slots = slotFields
        .filter((s) => !s.startsWith('['))
        .map((s) => {
          const [a, b] = s.split('-');
          return [Number(a), Number(b ?? a)] as [number, number];
        });
      return { id, port, flags: flags.split(','), masterId, linkState, slots };
    });
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

/** Runs a command to completion with a deadline, resolving with its output. */
function run(command: string, args: readonly string[], env: Record<string, string | undefined>, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (c: Buffer) => {
      output = (output + c.toString()).slice(-16_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} exited ${signal ?? code}\n${output.slice(-4_000)}`));
    });
  });
}

/**
 * A private Redis Cluster on 127.0.0.1: `masters` x (1 + `replicasPerMaster`) redis-servers
 * started `--cluster-enabled yes` the way startPrivateRedis starts one (own port and directory,
 * noeviction, AOF), joined by `redis-cli --cluster create ... --cluster-replicas N --cluster-yes`,
 * and waited on until every node says cluster_state:ok, every slot is served and every replica
 * is linked. Binaries (redis-server, redis-cli) are ensured by the caller.
 */
export async function startPrivateRedisCluster(options: PrivateRedisClusterOptions = {}): Promise<PrivateRedisCluster> {
  const env = options.env ?? process.env;
  const masterCount = options.masters ?? 3;
  const replicas = options.replicasPerMaster ?? 1;
  const total = masterCount * (1 + replicas);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const cliBinary = options.redisCli ?? 'redis-cli';
  const root = mkdtempSync(join(env.TMPDIR ?? tmpdir(), 'notify-redis-cluster-'));
  const group = options.group ?? new ProcessGroup();
  const servers = new Map<number, PrivateRedis>();
  const alive = new Map<number, boolean>();
  const ports: number[] = [];
  const nodeArgs = [
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    'nodes.conf',
    '--cluster-node-timeout',
    String(options.nodeTimeoutMs ?? 2_000),
    // A replica may always take over, however long it was cut off (tests kill nodes on purpose).
    '--cluster-replica-validity-factor',
    '0',
    ...(options.args ?? []),
  ];

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.all([...servers.values()].map((s) => s.stop().catch(() => undefined)));
    if (!options.group) await group.stopAll(1_000);
    rmSync(root, { recursive: true, force: true });
  };

  const cli = (args: readonly string[], cliTimeoutMs = 120_000) => run(cliBinary, ['--cluster', ...args], env, cliTimeoutMs);

  const livePorts = () => ports.filter((p) => alive.get(p));
  const nodesView = async (): Promise<NodeLine[]> => {
    let lastError: unknown;
    for (const port of livePorts()) {
      try {
        return parseClusterNodes(await onNode(port, (r) => r.cluster('NODES') as Promise<string>));
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError instanceof Error ? lastError : new Error('no live cluster node answers');
  };
  const masters = async () => mastersOf(await nodesView());

  const healthy = async (): Promise<boolean> => {
    for (const port of livePorts()) {
      const info = await clusterInfo(port);
      if (info.cluster_state !== 'ok' || Number(info.cluster_slots_ok) !== CLUSTER_SLOTS) return false;
      // Every node agrees on who the masters are (no stale view of a failed-over master).
      const view = mastersOf(parseClusterNodes(await onNode(port, (r) => r.cluster('NODES') as Promise<string>)));
      if (view.some((m) => !alive.get(m.port))) return false;
      if (view.reduce((a, m) => a + m.slotCount, 0) !== CLUSTER_SLOTS) return false;
    }
    // Every live replica has its master link up (a promotion needs an in-sync replica).
    for (const port of livePorts()) {
      const replication = await onNode(port, (r) => r.info('replication'));
      if (replication.includes('role:slave') && !replication.includes('master_link_status:up')) return false;
    }
    return true;
  };
  const waitHealthy = async (ms = timeoutMs): Promise<void> => {
    await waitFor('the Redis Cluster healthy (cluster_state:ok, every slot served, replicas linked)', healthy, ms, 100, options.signal);
  };
  const kill = async (port: number) => {
    const server = servers.get(port);
    if (!server) throw new Error(`no cluster node on port ${port}`);
    alive.set(port, false);
    await server.kill();
  };

  const restart = async (port: number) => {
    const server = servers.get(port);
    if (!server) throw new Error(`no cluster node on port ${port}`);
    await server.restart();
    alive.set(port, true);
    await waitHealthy();
  };

  const killMaster = async (index: number) => {
    const before = await masters();
    const victim = before[index];
    if (!victim) throw new Error(`no master #${index} (the cluster has ${before.length})`);
    const candidates = victim.replicas.filter((p) => alive.get(p));
    if (candidates.length === 0) throw new Error(`master on port ${victim.port} has no live replica: killing it would leave slots unserved`);
    await kill(victim.port);
    const promoted = await waitFor(
      `a replica of ${victim.port} promoted`,
      async () => {
        const now = await masters();
        const taker = now.find((m) => candidates.includes(m.port) && m.slots[0]?.[0] === victim.slots[0]?.[0]);
        if (!taker) return undefined;
        for (const port of livePorts()) {
          const info = await clusterInfo(port);
          if (info.cluster_state !== 'ok') return undefined;
        }
        return taker.port;
      },
      timeoutMs,
      100,
      options.signal,
    );
    return { killed: victim.port, promoted };
  };

  try {
    // Each node's cluster bus gets a free port of its own (the default, port + 10000, may be taken or past 65535).
    const taken = new Set<number>();
    const busPorts: number[] = [];
    while (taken.size < 2 * total) {
      const port = await freePort();
      if (taken.has(port)) continue;
      taken.add(port);
      if (ports.length < total) ports.push(port);
      else busPorts.push(port);
    }
    const starts = ports.map((port, i) =>
      startPrivateRedis({
        port,
        group,
        env,
        dataDir: join(root, `node-${i}`),
        persistence: options.persistence ?? 'aof',
        args: [...nodeArgs, '--cluster-port', String(busPorts[i])],
        timeoutMs,
        ...(options.redisServer ? { redisServer: options.redisServer } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      }).then((server) => {
        servers.set(port, server);
        alive.set(port, true);
      }),
    );
    await Promise.all(starts);
    await cli(['create', ...ports.map((p) => `${HOST}:${p}`), '--cluster-replicas', String(replicas), '--cluster-yes'], timeoutMs);
    await waitHealthy();
  } catch (error) {
    await stop();
    throw error;
  }

  const nodes: ClusterNodeProcess[] = ports.map((port) => ({
    host: HOST,
    port,
    url: `redis://${HOST}:${port}`,
    get running() {
      return alive.get(port) === true;
    },
  }));
  const masterKeys = async () => Promise.all((await masters()).map(async (m) => ({ port: m.port, keys: await onNode(m.port, (r) => r.dbsize()) })));
  return {
    name: `Redis Cluster of ${total} nodes on 127.0.0.1:${ports.join(',')}`,
    url: `redis://${HOST}:${ports[0]}`,
    nodes,
    nodesEnv: ports.map((p) => `${HOST}:${p}`).join(','),
    masters,
    masterKeys,
    killMaster,
    kill,
    restart,
    waitHealthy,
    cli,
    stop,
  };
}
