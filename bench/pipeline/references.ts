import type { Redis } from 'ioredis';
import { Queue } from 'bullmq';
import { percentile, runOpenLoop, trafficMix } from '@notify/platform-kit';
import { childProcesses, cpuShares, sampleCpu } from './proc-cpu';
import { redisCost, sampleRedis } from './redis-info';

export interface IntakeResult {
  what: string;
  offered: number;
  acceptedPerSecond: number;
  intakeP50Ms: number | null;
  intakeP99Ms: number | null;
  redisCpuUsPerAccept: number | null;
  scriptCallsPerAccept: number | null;
  roundTripsPerAccept: number | null;
  failedRequests: number;
  notSent: number;
  cpu: Record<string, number>;
}

/**
 * Single POSTs at `rate` for `seconds` against an intake (the platform's api, or the bare
 * prototype), measured from the client: accepted per second, request latency, and what Redis
 * and each process spent per accepted notification.
 */
export async function holdIntake(
  what: string,
  target: { url: string; apiKey: string; redis: Redis },
  rate: number,
  seconds: number,
  seed: number,
): Promise<IntakeResult> {
  const traffic = trafficMix({ tag: `${what.replace(/\W+/g, '-')}-${rate}-${Date.now().toString(36)}`, seed, urgentShare: 0.5 });
  const pids = childProcesses();
  const r0 = await sampleRedis(target.redis);
  const c0 = sampleCpu(pids);
  const u0 = process.cpuUsage();
  const load = await runOpenLoop({
    apiUrl: target.url,
    apiKey: target.apiKey,
    ratePerSecond: rate,
    seconds,
    tickMs: 50,
    mode: 'single',
    next: () => traffic().request,
    maxInFlight: 256,
    whenFull: 'skip',
  });
  const cost = redisCost(r0, await sampleRedis(target.redis));
  const u1 = process.cpuUsage(u0);
  const cpu = cpuShares(c0, sampleCpu(pids), load.seconds);
  cpu.bench = (u1.user + u1.system) / 1e6 / load.seconds;
  const per = (v: number) => (load.accepted > 0 ? v / load.accepted : null);
  return {
    what,
    offered: rate,
    acceptedPerSecond: load.accepted / load.seconds,
    intakeP50Ms: percentile(load.requestLatenciesMs, 50) ?? null,
    intakeP99Ms: percentile(load.requestLatenciesMs, 99) ?? null,
    redisCpuUsPerAccept: per(cost.cpuSeconds * 1e6),
    scriptCallsPerAccept: per(cost.scriptCalls),
    roundTripsPerAccept: per(cost.roundTrips),
    failedRequests: load.failed,
    notSent: load.skippedForBackpressure,
    cpu,
  };
}

export interface TwoHopResult {
  jobs: number;
  jobsPerSecond: number;
  windowSeconds: number;
  redisCpuUsPerJob: number | null;
  scriptCallsPerJob: number | null;
  roundTripsPerJob: number | null;
  cpu: Record<string, number>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Fills hop 1 with `jobs` jobs (before the workers run), so the drain runs at the ceiling. */
export async function prefillTwoHop(redis: Redis, jobs: number): Promise<void> {
  const queue = new Queue('hop-1', { connection: redis, defaultJobOptions: { removeOnComplete: true } });
  for (let i = 0; i < jobs; i += 1_000) {
    await queue.addBulk(Array.from({ length: Math.min(1_000, jobs - i) }, (_v, k) => ({ name: 'step', data: { n: i + k }, opts: { jobId: `j-${i + k}` } })));
  }
  await queue.close();
}

/** Measures the prefilled two-hop pipeline's completions over `seconds` after `settleSeconds`. */
export async function measureTwoHop(redis: Redis, countUrls: string[], jobs: number, seconds: number, settleSeconds: number): Promise<TwoHopResult> {
  const completed = async () =>
    (await Promise.all(countUrls.map(async (u) => ((await (await fetch(`${u}/count`)).json()) as { completed: number }).completed))).reduce((a, b) => a + b, 0);
  const deadline = performance.now() + (seconds + settleSeconds + 30) * 1_000;
  while ((await completed()) === 0 && performance.now() < deadline) await sleep(50);
  await sleep(settleSeconds * 1_000);
  const pids = childProcesses();
  const n0 = await completed();
  const t0 = performance.now();
  const r0 = await sampleRedis(redis);
  const c0 = sampleCpu(pids);
  let n1 = n0;
  while (performance.now() - t0 < seconds * 1_000 && n1 < jobs) {
    await sleep(250);
    n1 = await completed();
  }
  const windowSeconds = (performance.now() - t0) / 1_000;
  const cost = redisCost(r0, await sampleRedis(redis));
  const done = n1 - n0;
  const per = (v: number) => (done > 0 ? v / done : null);
  return {
    jobs: done,
    jobsPerSecond: done / windowSeconds,
    windowSeconds,
    redisCpuUsPerJob: per(cost.cpuSeconds * 1e6),
    scriptCallsPerJob: per(cost.scriptCalls),
    roundTripsPerJob: per(cost.roundTrips),
    cpu: cpuShares(c0, sampleCpu(pids), windowSeconds),
  };
}
