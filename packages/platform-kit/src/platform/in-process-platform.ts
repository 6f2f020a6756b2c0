import type { Logger } from 'pino';
import pino from 'pino';
import { Registry } from 'prom-client';
import type { Channel } from '@notify/core';
import { createBreakerGate, type BreakerConfig, type BreakerGate, type ChannelGate } from '@notify/pipeline';
import { createRedis, waitUntilReady } from '@notify/runtime';
import { startPrivateRedis, type PrivateRedis, type PrivateRedisOptions } from '../services/private-redis';
import { startPrivateRedisCluster, type PrivateRedisCluster, type PrivateRedisClusterOptions } from '../services/private-redis-cluster';
import { ANY_FREE_SIMULATOR_PORTS, simulatorPortsEnv } from './simulator-ports';
import { cascadeTimeEnv } from './time-scale';

type Env = Record<string, string>;

/** What the in-process platform needs of the simulators, the api and a worker. */
export interface RunningSimulatorsPart {
  providerUrls: Record<Channel, string>;
  controlUrl: string;
  storesUrl: string;
  close(): Promise<void>;
}
export interface RunningApiPart {
  url: string;
  close(): Promise<void>;
}
export interface RunningWorkerPart {
  metricsUrl: string;
  close(): Promise<void>;
}

/**
 * How to start each part in this process from an env, with an optional channel gate. The
 * caller binds them to the apps (test/harness/platform.ts): this package never imports an app.
 */
export interface PlatformParts<S extends RunningSimulatorsPart, A extends RunningApiPart, W extends RunningWorkerPart> {
  startSimulators(env: Env): Promise<S>;
  startApi(env: Env, gate: ChannelGate | undefined): Promise<A>;
  startWorker(env: Env, gate: ChannelGate | undefined): Promise<W>;
}

export interface GatedProcess {
  gate: BreakerGate;
  registry: Registry;
}

export interface InProcessOptions {
  workerCount?: number;
  /** `API_KEYS` for the api (key:tenant,...). */
  apiKeys: string;
  /** Cascade delays at this x production (default 0.01: BI9's 30 s -> 300 ms). */
  timeScale?: number;
  /** Env for the api and the workers, over the defaults. */
  env?: Env;
  /** Env for the simulators, over the defaults (ports 0, 5 ms latency). */
  simEnv?: Env;
  /**
   * A breaker gate per "process", as separate processes would have them: each on its own
   * fail-fast connection, registry and logger. Without it, the apps build their own from env.
   */
  breaker?: { config: BreakerConfig; logger?: Logger };
  /** Or the caller's own gate for each part (a test's switchable gate). */
  gateFor?: (role: 'api' | 'worker', index: number) => ChannelGate;
  redis?: PrivateRedisOptions;
  /**
   * Run on a private Redis Cluster (3 masters + 3 replicas by default) instead of one
   * redis-server: every part gets REDIS_CLUSTER_NODES and PARTITIONS (default 16).
   */
  cluster?: PrivateRedisClusterOptions & { partitions?: number };
}

/**
 * A cluster seen as the `redis` of a platform (its first node's url; stop() stops the cluster):
 * kill and restart are per node on a cluster (cluster.killMaster, cluster.restart).
 */
function clusterAsRedis(cluster: PrivateRedisCluster): PrivateRedis {
  const perNode = () => Promise.reject(new Error('a cluster is killed per node: use cluster.killMaster(i) or cluster.kill(port)'));
  return { name: cluster.name, url: cluster.url, port: cluster.nodes[0]?.port ?? 0, kill: perNode, restart: perNode, stop: () => cluster.stop() };
}

export interface InProcessPlatform<S, A, W> {
  /** The one redis-server; with `cluster`, the cluster's first node (stop() stops the cluster). */
  redis: PrivateRedis;
  /** The private Redis Cluster, when the platform runs on one. */
  cluster: PrivateRedisCluster | undefined;
  sims: S;
  api: A;
  workers: W[];
  /** One per part with `breaker`: [0] is the api's, the rest the workers'. */
  gates: GatedProcess[];
  /** The env the api and the workers were started with. */
  env: Env;
  /** Closes everything in reverse order of start; safe after a partial start and twice. */
  stop(): Promise<void>;
}

/**
 * A private redis-server, the simulated providers, the api and `workerCount` workers in this
 * process, wired together on loopback with free ports.
 */
export async function startInProcessPlatform<S extends RunningSimulatorsPart, A extends RunningApiPart, W extends RunningWorkerPart>(
  parts: PlatformParts<S, A, W>,
  options: InProcessOptions,
): Promise<InProcessPlatform<S, A, W>> {
  const cluster = options.cluster ? await startPrivateRedisCluster(options.cluster) : undefined;
  const redis = cluster ? clusterAsRedis(cluster) : await startPrivateRedis(options.redis);
  const closers: (() => Promise<void>)[] = [];
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await redis.stop();
  };
  try {
    const sims = await parts.startSimulators({
      ...simulatorPortsEnv(ANY_FREE_SIMULATOR_PORTS),
      SIM_LATENCY_MS: '5',
      LOG_LEVEL: 'silent',
      ...options.simEnv,
    });
    closers.push(() => sims.close());
    const env: Env = {
      REDIS_URL: redis.url,
      ...(cluster ? { REDIS_CLUSTER_NODES: cluster.nodesEnv, PARTITIONS: String(options.cluster?.partitions ?? 16) } : {}),
      API_PORT: '0',
      WORKER_METRICS_PORT: '0',
      API_METRICS_PORT: '0',
      API_KEYS: options.apiKeys,
      PROVIDER_PUSH_URL: sims.providerUrls.push,
      PROVIDER_SMS_URL: sims.providerUrls.sms,
      PROVIDER_EMAIL_URL: sims.providerUrls.email,
      TRACKING_STORES_BASE_URL: sims.storesUrl,
      SHUTDOWN_GRACE_MS: '5000',
      LOG_LEVEL: 'silent',
      ...cascadeTimeEnv(options.timeScale ?? 0.01),
      ...options.env,
    };
    const gates: GatedProcess[] = [];
    const gateLogger = options.breaker?.logger ?? pino({ level: 'silent' });
    const gateFor = async (role: 'api' | 'worker', index: number): Promise<ChannelGate | undefined> => {
      if (options.gateFor) return options.gateFor(role, index);
      if (!options.breaker) return undefined;
      if (cluster) throw new Error('breaker gates per part run on one redis-server; on a cluster the apps build their own');
      const connection = createRedis(redis.url, 'producer');
      closers.push(async () => {
        await connection.quit().catch(() => connection.disconnect());
      });
      await waitUntilReady(connection);
      const registry = new Registry();
      const gate = createBreakerGate({ redis: connection, registry, logger: gateLogger, config: options.breaker.config });
      gates.push({ gate, registry });
      return gate;
    };
    const api = await parts.startApi(env, await gateFor('api', 0));
    closers.push(() => api.close());
    const workers: W[] = [];
    for (let i = 0; i < (options.workerCount ?? 1); i += 1) {
      const worker = await parts.startWorker(env, await gateFor('worker', i));
      closers.push(() => worker.close());
      workers.push(worker);
    }
    return { redis, cluster, sims, api, workers, gates, env, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
