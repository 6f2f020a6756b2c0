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
  /**
   * `redis-cli --cluster reshard`: moves `slots` slots (the lowest-numbered ones it holds) from
   * the master on port `from` to the master on port `to`, keys and all, while clients keep
   * working (they follow ASK and MOVED). Waits until every node agrees on the slot map before
   * (redis-cli refuses otherwise) and after. Resolves with redis-cli's output.
   */
  reshard(move: { from: number; to: number; slots: number }, timeoutMs?: number): Promise<string>;
  /**
   * Moves the given slots (e.g. the slot of one partition's hash tag) to the master on port `to`
   * the way redis-cli does it, slot by slot: SETSLOT IMPORTING on the target, MIGRATING on the
   * owner, MIGRATE of its keys in batches, then SETSLOT NODE on the target, the owner and every
   * other master. Slots the target holds already are skipped. Resolves with the keys moved.
   */
  moveSlots(slots: readonly number[], to: number, timeoutMs?: number): Promise<{ slots: number; keys: number }>;
  /** Waits until every running node reports the same masters with the same slots and no slot importing or migrating. */
  waitAgreed(timeoutMs?: number): Promise<void>;
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
async function onNode<T>(port: number, run: (redis: Redis) => Promise<T>, timeoutMs = 2_000, host = HOST): Promise<T> {
  const redis = new Redis({
    host,
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

/** `CLUSTER INFO` of the node on `host:port` (default 127.0.0.1) as a map; rejects when it does not answer or has cluster support off. */
export async function clusterInfo(port: number, host = HOST, timeoutMs = 2_000): Promise<Record<string, string>> {
  const text = await onNode(port, (r) => r.cluster('INFO'), timeoutMs, host);
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
  /** Slots this node is migrating or importing (shown only in the node's own line). */
  openSlots: number;
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

  /** A node's view of the slot map: every master's id and slot ranges, or undefined while one of its slots is open. */
  const slotMapOf = async (port: number): Promise<string | undefined> => {
    const view = parseClusterNodes(await onNode(port, (r) => r.cluster('NODES') as Promise<string>));
    if (view.some((n) => n.openSlots > 0)) return undefined;
    return view
      .filter((n) => n.flags.includes('master') && n.slots.length > 0)
      .map((n) => `${n.id}:${n.slots.map(([a, b]) => `${a}-${b}`).join(',')}`)
      .sort()
      .join(' ');
  };
  const waitAgreed = async (ms = timeoutMs): Promise<void> => {
    await waitFor(
      'every cluster node to agree on the slot map (no slot open)',
      async () => {
        const maps = await Promise.all(livePorts().map((port) => slotMapOf(port)));
        return maps.every((m) => m !== undefined && m === maps[0]);
      },
      ms,
      100,
      options.signal,
    );
  };

  const reshard = async (move: { from: number; to: number; slots: number }, ms = 120_000): Promise<string> => {
    // redis-cli checks the cluster first and refuses while nodes disagree (a previous move still gossiping).
    await waitAgreed(ms);
    const now = await masters();
    const from = now.find((m) => m.port === move.from);
    const to = now.find((m) => m.port === move.to);
    if (!from || !to) throw new Error(`reshard: ${from ? move.to : move.from} is not a master with slots`);
    const output = await cli(
      [
        'reshard',
        `${HOST}:${move.from}`,
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
    await waitAgreed(ms);
    return output;
  };

  const moveSlots = async (slots: readonly number[], to: number, ms = 120_000): Promise<{ slots: number; keys: number }> => {
    await waitAgreed(ms);
    const view = await masters();
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
                await src.call('MIGRATE', HOST, to, '', 0, 10_000, 'KEYS', ...batch);
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
    await waitAgreed(ms);
    return { slots: moved, keys };
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
    reshard,
    moveSlots,
    waitAgreed,
    stop,
  };
}
