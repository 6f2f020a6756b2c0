import { readCounts, type Counts } from './metric-counts';
import { cpuShares, sampleCpu, type CpuSample } from './proc-cpu';
import { redisCost, sampleRedis, type RedisSample } from './redis-info';
import type { BenchTarget } from './bench-target';
import type { RateResult } from './rate-result';

/** What was read when the hold began: the whole run's costs are deltas from it. */
export interface RunStart {
  counts: Counts;
  redis: RedisSample;
  cpu: CpuSample;
  /** The bench process's own CPU seconds. */
  bench: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** With several api instances (api, api-2, ...): their sum as well, as 'api total'. */
export function withApiTotal(cpu: Record<string, number>): Record<string, number> {
  const apis = Object.entries(cpu).filter(([name]) => /^api(-\d+)?$/.test(name));
  if (apis.length > 1) cpu['api total'] = apis.reduce((sum, [, v]) => sum + v, 0);
  return cpu;
}

/**
 * After the hold: waits (up to `drainSeconds`) until every accepted notification is terminal,
 * with the history on the archive queue is empty, and with webhooks every delivered one's call
 * has succeeded; then reads the whole run's costs (hold and
 * drain, every notification terminal): Redis's, each process's CPU, Redis's memory.
 */
export async function drainAndCost(
  target: BenchTarget,
  o: { endAt: number; drainSeconds: number; history: boolean; webhooks: boolean; pids: ReadonlyMap<string, number>; benchCpu: () => number },
  start: RunStart,
): Promise<Pick<RateResult, 'drainSeconds' | 'historyDrainSeconds' | 'webhookDrainSeconds' | 'wholeRun'>> {
  const deadline = performance.now() + o.drainSeconds * 1_000;
  let drainSeconds: number | null = null;
  let historyDrainSeconds: number | null = null;
  let webhookDrainSeconds: number | null = null;
  const since = () => (performance.now() - o.endAt) / 1_000;
  let c = await readCounts(target);
  for (;;) {
    if (drainSeconds === null && c.terminal >= c.accepted) drainSeconds = since();
    if (drainSeconds !== null && o.history && historyDrainSeconds === null && c.historyBacklog === 0) historyDrainSeconds = since();
    const webhooksDone = c.webhookDeliveries - start.counts.webhookDeliveries >= c.delivered - start.counts.delivered;
    if (drainSeconds !== null && o.webhooks && webhookDrainSeconds === null && webhooksDone) webhookDrainSeconds = since();
    if (drainSeconds !== null && (!o.history || historyDrainSeconds !== null) && (!o.webhooks || webhookDrainSeconds !== null)) break;
    if (performance.now() > deadline) break;
    await sleep(250);
    c = await readCounts(target);
  }
  if (drainSeconds === null) return { drainSeconds, historyDrainSeconds, webhookDrainSeconds, wholeRun: null };
  const redis = await sampleRedis(target.redis);
  const run = redisCost(start.redis, redis);
  const n = c.terminal - start.counts.terminal;
  const delivered = c.delivered - start.counts.delivered;
  const per = (v: number) => (n > 0 ? v / n : null);
  const seconds = withApiTotal(cpuShares(start.cpu, sampleCpu(o.pids), 1));
  const system = Object.entries(seconds)
    .filter(([name]) => name !== 'api total' && !name.startsWith('bench'))
    .reduce((sum, [, s]) => sum + s, 0);
  seconds.bench = o.benchCpu() - start.bench;
  return {
    drainSeconds,
    historyDrainSeconds,
    webhookDrainSeconds,
    wholeRun: {
      notifications: n,
      delivered,
      redisCpuUs: per(run.cpuSeconds * 1e6),
      scriptCalls: per(run.scriptCalls),
      roundTrips: per(run.roundTrips),
      commands: per(run.commands),
      cpuUs: Object.fromEntries(Object.entries(seconds).map(([name, s]) => [name, n > 0 ? (s * 1e6) / n : 0])),
      systemCpuUsPerDelivered: delivered > 0 ? (system * 1e6) / delivered : null,
      redisBytesPerTerminal: per(redis.usedMemory - start.redis.usedMemory),
    },
  };
}
