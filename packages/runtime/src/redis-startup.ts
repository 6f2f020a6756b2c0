import type { Logger } from 'pino';
import { withRedisProbe as probe } from './redis-probe';

/** Where the Redis is (redis-connection's RedisTarget, which imports this module). */
interface StartupTarget {
  url: string;
  clusterNodes?: readonly { host: string; port: number }[];
  startupTimeoutMs?: number;
}

/** How long a process waits at start-up for its Redis when REDIS_STARTUP_TIMEOUT_MS is not set. */
export const DEFAULT_REDIS_STARTUP_TIMEOUT_MS = 300_000;

/**
 * A start-up refusal that waiting cannot cure (a Redis that may lose data, a partition count
 * that disagrees): the process exits at once instead of retrying until its deadline.
 */
export class StartupRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupRefusal';
  }
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `step` until it succeeds, retrying any failure but a StartupRefusal with a back-off
 * (200 ms doubling to 5 s) until `deadline` (ms since the epoch); then throws its last error.
 * A process started while Redis is down, frozen or failing over waits as a running one does.
 */
export async function retryUntil<T>(what: string, deadline: number, step: () => Promise<T>, logger?: Logger): Promise<T> {
  let delayMs = 200;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const result = await step();
      if (attempt > 1) logger?.info({ attempts: attempt }, `${what}: done after waiting`);
      return result;
    } catch (error) {
      if (error instanceof StartupRefusal || Date.now() + delayMs >= deadline) throw error;
      // The message only: an ioredis error may name the address.
      if (attempt === 1 || attempt % 10 === 0)
        logger?.warn(
          { error: error instanceof Error ? error.message : String(error), attempt, retryInMs: delayMs, leftMs: deadline - Date.now() },
          `${what}: Redis not ready; waiting (start-up deadline REDIS_STARTUP_TIMEOUT_MS)`,
        );
      await pause(delayMs);
      delayMs = Math.min(delayMs * 2, 5_000);
    }
  }
}

/**
 * Whether the Redis of `target` serves now: the one server answers PING (and is not loading its
 * data); on a cluster, a seed node reports cluster_state:ok and every master it lists answers.
 * Throws what is wrong.
 */
export async function checkRedisServes(target: StartupTarget): Promise<void> {
  if (!target.clusterNodes || target.clusterNodes.length === 0) {
    await probe({ url: target.url }, async (redis) => {
      await redis.ping();
      if (/^loading:1/m.test(await redis.info('persistence'))) throw new Error('Redis is loading its data');
    });
    return;
  }
  let lastError: unknown;
  for (const seed of target.clusterNodes) {
    try {
      const masters = await probe(seed, async (redis) => {
        const info = String(await redis.call('CLUSTER', 'INFO'));
        if (!/^cluster_state:ok/m.test(info)) throw new Error('the cluster state is not ok (a master is failing over)');
        const nodes = String(await redis.call('CLUSTER', 'NODES'));
        return nodes
          .split('\n')
          .map((line) => line.split(' '))
          .filter((f) => {
            // A master marked failed (its replica took over) is skipped; one only suspected (fail?) must answer.
            const flags = (f[2] ?? '').split(',');
            return flags.includes('master') && !flags.includes('fail') && !flags.includes('noaddr');
          })
          .map((f) => /^(.+):(\d+)@/.exec(f[1] ?? ''))
          .filter((m): m is RegExpExecArray => m !== null)
          .map((m) => ({ host: m[1] === '' ? seed.host : (m[1] as string), port: Number(m[2]) }));
      });
      for (const master of masters) await probe(master, (redis) => redis.ping());
      return;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError instanceof Error ? lastError : new Error('no cluster seed node answers');
}

/** Waits, logged, until the Redis of `target` serves (checkRedisServes) or `timeoutMs` passed. */
export async function waitForRedis(
  target: StartupTarget,
  logger: Logger,
  timeoutMs = target.startupTimeoutMs ?? DEFAULT_REDIS_STARTUP_TIMEOUT_MS,
): Promise<void> {
  await retryUntil('start-up', Date.now() + timeoutMs, () => checkRedisServes(target), logger);
}
