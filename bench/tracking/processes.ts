import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ENTRIES, ProcessGroup, startAppOnFreePorts, startPrivateRedis, startSimulatorsOnFreePorts, type ManagedProcess } from '@notify/platform-kit';

/** The bench's own tenant key (16+ characters, as the api requires); sent as a Bearer token. */
export const BENCH_KEY = 'bench-tracking-key-00000001';

/** A running api process: its public origin and its /metrics listener. */
export interface TrackingApi {
  url: string;
  metricsUrl: string;
  /** Its process id (the bench reads its CPU time from /proc). */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** The processes under test: a private redis-server, the simulators (tracking stores), and api processes on demand. */
export interface TrackingBed {
  storesUrl: string;
  /** The simulators process (the stores) id. */
  storesPid: number | undefined;
  /** Starts one api process with these TRACKING_* settings and waits until it is ready. */
  startApi: (trackingEnv: Record<string, string>) => Promise<TrackingApi>;
  stop(): Promise<void>;
}

// Longer than the client's 10 s idle timeout: a server closing an idle socket the client is
// about to reuse shows up as ECONNRESET, a bench artefact, not the path under test.
const KEEP_ALIVE = { HTTP_KEEP_ALIVE_TIMEOUT_MS: '60000' };

/**
 * Starts the stores as the simulators app and the api as the api app, each a process of its own
 * (so the client, the gateway and the stores do not share an event loop), through the platform
 * kit's process group: every child is stopped at the end, or killed if the bench exits early.
 */
export async function startTrackingBed(options: { cpuProfileDir?: string } = {}): Promise<TrackingBed> {
  const dir = mkdtempSync(join(tmpdir(), 'notify-bench-tracking-'));
  const group = new ProcessGroup({ logDir: dir });
  const inherited = Object.fromEntries(['PATH', 'HOME', 'TMPDIR'].flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : []))) as Record<string, string>;
  const base = { ...inherited, NODE_ENV: 'development', LOG_LEVEL: 'warn', ...KEEP_ALIVE };
  // Node 20 refuses --cpu-prof in NODE_OPTIONS: the pipeline bench's preloaded inspector hook
  // writes <dir>/api-<pid>.cpuprofile when each api process exits.
  const profile =
    options.cpuProfileDir === undefined
      ? {}
      : { NODE_OPTIONS: `--import ${join(__dirname, '..', 'pipeline', 'cpu-profile-hook.mjs')}`, BENCH_CPU_PROF_DIR: options.cpuProfileDir };
  const apiGroups = new Set<ProcessGroup>();
  const stop = async (): Promise<void> => {
    await Promise.all([...apiGroups].map((g) => g.stopAll()));
    await group.stopAll();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const redis = await startPrivateRedis({ group, env: inherited, dataDir: join(dir, 'redis'), persistence: 'none' });
    const simulators = await startSimulatorsOnFreePorts(group, { entry: DEFAULT_ENTRIES.simulators, env: base });
    const { ports } = simulators;
    const storesUrl = `http://127.0.0.1:${ports.stores}`;
    let apis = 0;
    const startApi = async (trackingEnv: Record<string, string>): Promise<TrackingApi> => {
      apis += 1;
      // A group per api: a stopped group refuses new children, and the bench starts several apis in turn.
      const own = new ProcessGroup({ logDir: dir });
      apiGroups.add(own);
      let started: { process: ManagedProcess; ports: number[] };
      try {
        started = await startAppOnFreePorts(own, {
          name: `api-${apis}`,
          entry: DEFAULT_ENTRIES.api,
          ports: 2,
          env: ([port, metricsPort]) => ({
            ...base,
            ...profile,
            ...trackingEnv,
            REDIS_URL: redis.url,
            API_HOST: '127.0.0.1',
            API_PORT: String(port),
            API_METRICS_PORT: String(metricsPort),
            API_KEYS: `${BENCH_KEY}:bench`,
            TRACKING_STORES_BASE_URL: storesUrl,
            SHUTDOWN_GRACE_MS: '2000',
          }),
          readyUrl: ([port]) => `http://127.0.0.1:${port}/readyz`,
        });
      } catch (error) {
        await own.stopAll();
        throw error;
      }
      const [port, metricsPort] = started.ports;
      const api = started.process;
      const url = `http://127.0.0.1:${port}`;
      return {
        url,
        pid: api.process.pid,
        metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
        stop: async () => {
          apiGroups.delete(own);
          await own.stopAll();
        },
      };
    };
    return { storesUrl, storesPid: simulators.process.process.pid, startApi, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
