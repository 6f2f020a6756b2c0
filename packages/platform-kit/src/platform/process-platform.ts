import { DEFAULT_ENTRIES, type AppEntries } from '../processes/app-entries';
import { startAppOnFreePorts } from '../processes/app-on-free-ports';
import type { ManagedProcess } from '../processes/managed-process';
import type { ProcessGroup } from '../processes/process-group';
import { startPrivateRedis } from '../services/private-redis';
import { startPrivateRedisCluster, type PrivateRedisCluster, type PrivateRedisClusterOptions } from '../services/private-redis-cluster';
import type { SimulatorPorts } from './simulator-ports';
import { startSimulatorsOnFreePorts } from './simulators-on-free-ports';

export interface ProcessPlatformOptions {
  group: ProcessGroup;
  /** Passed to every child (PATH finds node and redis-server): nothing else of ours leaks in. */
  inherited: Record<string, string>;
  workers: number;
  /** api processes (default 1): each on its own ports, same Redis, same config. */
  apiInstances?: number;
  /** `API_KEYS` for the api (key:tenant,...). */
  apiKeys: string;
  /** Env for the api and the workers: scaled cascade delays, BREAKER_* ... */
  appEnv?: Record<string, string>;
  /** Extra env for the simulators (provider latency, error rates). */
  simEnv?: Record<string, string>;
  /**
   * Env for the api and the workers that names where the simulators ended up (a PROVIDERS_FILE
   * written with their ports): called once they are up, before the api and the workers start.
   */
  appEnvFor?: (simulators: SimulatorPorts) => Record<string, string>;
  entries?: AppEntries;
  /** Redis's data directory (without persistence a run's data is thrown away). */
  dataDir: string;
  /** The one redis-server's persistence: none (default) or production's AOF with `appendfsync everysec`. */
  redisPersistence?: 'aof' | 'none';
  redisServer?: string;
  signal?: AbortSignal;
  startTimeoutMs?: number;
  /**
   * Run on a private Redis Cluster (no persistence, like the one redis-server) instead: every
   * app gets REDIS_CLUSTER_NODES and PARTITIONS (default 16).
   */
  cluster?: Pick<PrivateRedisClusterOptions, 'masters' | 'replicasPerMaster' | 'nodeTimeoutMs' | 'args'> & { partitions?: number };
}

export interface ProcessPlatform {
  /** The one redis-server; on a cluster, its first node. */
  redisUrl: string;
  /** The private Redis Cluster, when the platform runs on one. */
  cluster: PrivateRedisCluster | undefined;
  controlUrl: string;
  storesUrl: string;
  /** The (first) api. */
  apiUrl: string;
  /** The api's /metrics (its own listener, not the public port). */
  apiMetricsUrl: string;
  /** Every api instance, in start order (the first is `apiUrl`), and its /metrics. */
  apiUrls: string[];
  apiMetricsUrls: string[];
  workerUrls: string[];
  processes: { simulators: ManagedProcess; api: ManagedProcess; apis: ManagedProcess[]; workers: ManagedProcess[] };
  /** Workers first (they drain against a live Redis), then the api, the simulators, Redis. */
  stop(): Promise<void>;
}

/**
 * The platform as real processes on 127.0.0.1, every port free and private: a redis-server,
 * the simulators, the api (`apiInstances` of it: api, api-2, ...) and `workers` worker
 * processes (all roles each), all in `group`.
 */
export async function startProcessPlatform(o: ProcessPlatformOptions): Promise<ProcessPlatform> {
  const timeoutMs = o.startTimeoutMs ?? 60_000;
  const apiInstances = o.apiInstances ?? 1;
  if (!Number.isInteger(apiInstances) || apiInstances < 1) throw new Error('apiInstances must be a positive integer');
  const entries = o.entries ?? DEFAULT_ENTRIES;
  const wait = { timeoutMs, ...(o.signal ? { signal: o.signal } : {}) };
  const server = {
    group: o.group,
    env: o.inherited,
    persistence: o.redisPersistence ?? 'none',
    timeoutMs,
    ...(o.redisServer ? { redisServer: o.redisServer } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  } as const;
  const cluster = o.cluster ? await startPrivateRedisCluster({ ...server, ...o.cluster }) : undefined;
  const redis = cluster ?? (await startPrivateRedis({ ...server, dataDir: o.dataDir }));
  const appEnv = (env: Record<string, string>) => ({ ...o.inherited, NODE_ENV: 'development', ...env });
  const onFreePorts = (
    name: string,
    entry: string,
    ports: number,
    env: (p: readonly number[]) => Record<string, string>,
    readyUrl: (p: readonly number[]) => string,
  ) => startAppOnFreePorts(o.group, { name, entry, ports, env: (p) => appEnv(env(p)), readyUrl, timeoutMs, ...(o.signal ? { signal: o.signal } : {}) });

  // The simulators first: the api and the workers are given the ports they ended up on.
  const sims = await startSimulatorsOnFreePorts(o.group, {
    entry: entries.simulators,
    env: appEnv({ LOG_LEVEL: 'warn', ...o.simEnv }),
    ...wait,
  });
  const simulators = sims.process;
  const { control, push, sms, email, stores } = sims.ports;
  const controlUrl = `http://127.0.0.1:${control}`;
  const storesUrl = `http://127.0.0.1:${stores}`;
  const common = {
    ...o.appEnv,
    ...o.appEnvFor?.(sims.ports),
    REDIS_URL: redis.url,
    ...(cluster ? { REDIS_CLUSTER_NODES: cluster.nodesEnv, PARTITIONS: String(o.cluster?.partitions ?? 16) } : {}),
    LOG_LEVEL: 'warn',
    SHUTDOWN_GRACE_MS: '5000',
    TRACKING_STORES_BASE_URL: storesUrl,
    PROVIDER_PUSH_URL: `http://127.0.0.1:${push}`,
    PROVIDER_SMS_URL: `http://127.0.0.1:${sms}`,
    PROVIDER_EMAIL_URL: `http://127.0.0.1:${email}`,
  };
  const [startedApis, startedWorkers] = await Promise.all([
    Promise.all(
      Array.from({ length: apiInstances }, (_, i) =>
        onFreePorts(
          i === 0 ? 'api' : `api-${i + 1}`,
          entries.api,
          2,
          ([port, metricsPort]) => ({ ...common, API_HOST: '127.0.0.1', API_PORT: String(port), API_METRICS_PORT: String(metricsPort), API_KEYS: o.apiKeys }),
          ([port]) => `http://127.0.0.1:${port}/readyz`,
        ),
      ),
    ),
    Promise.all(
      Array.from({ length: o.workers }, (_, i) =>
        onFreePorts(
          `worker-${i + 1}`,
          entries.worker,
          1,
          ([port]) => ({ ...common, WORKER_ROLES: 'all', WORKER_METRICS_HOST: '127.0.0.1', WORKER_METRICS_PORT: String(port) }),
          ([port]) => `http://127.0.0.1:${port}/readyz`,
        ),
      ),
    ),
  ]);
  const apis = startedApis.map((a) => a.process);
  const apiUrls = startedApis.map((a) => `http://127.0.0.1:${a.ports[0]}`);
  const apiMetricsUrls = startedApis.map((a) => `http://127.0.0.1:${a.ports[1]}/metrics`);
  const workers = startedWorkers.map((w) => w.process);
  const workerUrls = startedWorkers.map((w) => `http://127.0.0.1:${w.ports[0]}`);
  return {
    redisUrl: redis.url,
    cluster,
    controlUrl,
    storesUrl,
    apiUrl: apiUrls[0] as string,
    apiMetricsUrl: apiMetricsUrls[0] as string,
    apiUrls,
    apiMetricsUrls,
    workerUrls,
    processes: { simulators, api: apis[0] as ManagedProcess, apis, workers },
    stop: async () => {
      await o.group.stop(workers);
      await o.group.stop(apis);
      await o.group.stop([simulators]);
      await o.group.stopAll();
      await cluster?.stop();
    },
  };
}
