import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessGroup } from '../processes/process-group';
import { runCommand } from '../processes/run-command';
import { failOverMaster, waitClusterAgreed, waitClusterHealthy } from './cluster/cluster-health';
import { joinCluster, type JoiningNode } from './cluster/cluster-join';
import { CLUSTER_HOST as HOST, liveMasters, onNode, type ClusterMaster, type LiveNodes } from './cluster/cluster-nodes';
import { moveClusterSlots, reshardSlots } from './cluster/cluster-slots';
import { freePorts } from './free-port';
import { retryOnPortTaken } from './port-retry';
import { waitFor } from './wait-for';
import { startPrivateRedis, type PrivateRedis } from './private-redis';
import type { PrivateService } from './private-service';

/** One redis-server of the cluster, as started (its role changes with failovers: ask `topology()`). */
export interface ClusterNodeProcess {
  readonly host: string;
  readonly port: number;
  readonly url: string;
  /** The server process is alive (false after `kill`, until `restart`). */
  readonly running: boolean;
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
   * over while healthy, so only tests that kill masters (for a failover in ~2 s) go down to 1000.
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

/**
 * A private Redis Cluster on 127.0.0.1: `masters` x (1 + `replicasPerMaster`) redis-servers
 * started `--cluster-enabled yes` the way startPrivateRedis starts one (own port and directory,
 * noeviction, AOF), joined as `redis-cli --cluster create ... --cluster-replicas N` would join them
 * (slots, MEET, REPLICATE; see joinCluster) without its fixed sleeps, and waited on until every node says cluster_state:ok, every slot is served and every replica
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
    // A master holds a full sync back 5 s by default, for more replicas to share it; each has one
    // replica here, and a start or a restarted node waits on that sync (4 s of each start).
    '--repl-diskless-sync-delay',
    '0',
    ...(options.args ?? []),
  ];
  const live: LiveNodes = {
    livePorts: () => ports.filter((p) => alive.get(p)),
    isAlive: (port) => alive.get(port) === true,
    timeoutMs,
    signal: options.signal,
  };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.all([...servers.values()].map((s) => s.stop().catch(() => undefined)));
    if (!options.group) await group.stopAll(1_000);
    rmSync(root, { recursive: true, force: true });
  };

  const cli = (args: readonly string[], cliTimeoutMs = 120_000) => runCommand(cliBinary, ['--cluster', ...args], env, cliTimeoutMs);
  const masters = () => liveMasters(live);
  const waitHealthy = (ms = timeoutMs) => waitClusterHealthy(live, ms);
  const server = (port: number) => {
    const found = servers.get(port);
    if (!found) throw new Error(`no cluster node on port ${port}`);
    return found;
  };
  const kill = async (port: number) => {
    const node = server(port);
    alive.set(port, false);
    await node.kill();
  };
  const restart = async (port: number) => {
    await server(port).restart();
    alive.set(port, true);
    await waitHealthy();
  };

  /**
   * One node on a fresh port and a fresh cluster bus port of its own (the default, port + 10000,
   * may be taken or past 65535), both chosen again when another process takes one first.
   */
  const chosen = new Set<number>();
  // Nodes start side by side: a port another node drew (or is drawing) is never handed out twice.
  const unchosenPorts = async (count: number): Promise<number[]> => {
    const picked: number[] = [];
    while (picked.length < count) {
      for (const p of await freePorts(count - picked.length)) {
        if (picked.length < count && !chosen.has(p)) picked.push(p);
        chosen.add(p);
      }
    }
    return picked;
  };
  const startNode = (i: number) =>
    retryOnPortTaken(`cluster node ${i}`, async () => {
      const [port, busPort] = (await unchosenPorts(2)) as [number, number];
      const dataDir = join(root, `node-${i}`);
      // A failed attempt may have written its nodes.conf: the node starts from an empty directory.
      rmSync(dataDir, { recursive: true, force: true });
      const started = await startPrivateRedis({
        port,
        group,
        env,
        dataDir,
        persistence: options.persistence ?? 'aof',
        args: [...nodeArgs, '--cluster-port', String(busPort)],
        timeoutMs,
        ...(options.redisServer ? { redisServer: options.redisServer } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      servers.set(port, started);
      return { port, busPort };
    });

  try {
    const started = await Promise.allSettled(Array.from({ length: total }, (_, i) => startNode(i)));
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const joining: JoiningNode[] = [];
    for (const r of started) if (r.status === 'fulfilled') joining.push(r.value);
    for (const { port } of joining) ports.push(port);
    for (const port of ports) alive.set(port, true);
    await joinCluster(joining, masterCount, timeoutMs, options.signal);
    await waitHealthy();
    // A replica's CLUSTER REPLICATE reaches the other nodes by gossip: healthy can come first.
    await waitFor('every master to list its replicas', async () => (await masters()).every((m) => m.replicas.length >= replicas), timeoutMs, 100);
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
    killMaster: (index) => failOverMaster(live, index, kill),
    kill,
    restart,
    waitHealthy,
    cli,
    reshard: (move, ms) => reshardSlots(live, cli, move, ms),
    moveSlots: (slots, to, ms) => moveClusterSlots(live, slots, to, ms),
    waitAgreed: (ms = timeoutMs) => waitClusterAgreed(live, ms),
    stop,
  };
}
