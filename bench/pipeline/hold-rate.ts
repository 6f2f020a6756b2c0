import { notificationId, type NotificationRequest } from '@notify/core';
import { percentile, runOpenLoop, sumSamples, trafficMix } from '@notify/platform-kit';
import { childProcesses, cpuShares, machineCpuSeconds, sampleCpu } from './proc-cpu';
import { redisCost, sampleRedis, type RedisCost } from './redis-info';
import { slope } from './stats';
import { sampleUrgentFirstTry, type FirstTry } from './urgent-first-try';
import type { BenchTarget } from './bench-target';

export type { BenchTarget } from './bench-target';

export interface HoldOptions {
  rate: number;
  seconds: number;
  /** The first seconds of the hold are not in the steady window (queues and pools fill). */
  settleSeconds: number;
  drainSeconds: number;
  mode: 'batch' | 'single';
  urgentShare: number;
  seed: number;
  /** Urgent notifications whose first-try latency is read back (status API) after the drain. */
  urgentSample: number;
  /** Workers are running (false: api + Redis only, nothing delivers). */
  delivering: boolean;
  /** Rewrites each notification before it is sent (`--consent`: its category and recipient). */
  shape?: (request: NotificationRequest, index: number) => NotificationRequest;
}

export interface RateResult {
  offered: number;
  mode: 'batch' | 'single';
  windowSeconds: number;
  acceptedPerSecond: number;
  deliveredPerSecond: number;
  /** Accepted and not yet terminal, at the end of the window; and in seconds of offered traffic. */
  backlogEnd: number;
  backlogSeconds: number;
  /** Backlog growth over the window, notifications per second (> 0: falling behind). */
  backlogSlope: number;
  /** From the end of the hold until every accepted notification was terminal; null if it never was. */
  drainSeconds: number | null;
  sustained: boolean;
  verdict: string;
  /**
   * Over the steady window, per notification that reached a terminal state in it (meaningful
   * when the rate was sustained: a growing backlog charges intake work to fewer deliveries).
   */
  redisCpuUsPerDelivery: number | null;
  scriptCallsPerNotification: number | null;
  roundTripsPerNotification: number | null;
  commandsPerNotification: number | null;
  topCommandsPerNotification: Record<string, number>;
  /**
   * Over the whole hold and its drain, per notification (every accepted one is terminal at the
   * end): the same costs, robust to a noisy machine and to a rate that was not sustained.
   */
  wholeRun: {
    notifications: number;
    redisCpuUs: number | null;
    scriptCalls: number | null;
    roundTrips: number | null;
    commands: number | null;
    /** CPU µs per notification of each process (api, worker, worker-2, simulators, redis, bench) over the hold and its drain. */
    cpuUs: Record<string, number>;
  } | null;
  intakeP50Ms: number | null;
  intakeP99Ms: number | null;
  urgentFirstTry: FirstTry;
  /**
   * Share of one core per process over the window (redis, api, worker, simulators, bench; with
   * several api instances api, api-2, ... and their sum 'api total'); 'machine': every process on
   * the machine (/proc/stat), 'others': the machine minus the bench's own processes.
   */
  cpu: Record<string, number>;
  failedRequests: number;
  notSent: number;
}

interface Counts {
  t: number;
  accepted: number;
  terminal: number;
  delivered: number;
}

async function counts(target: BenchTarget): Promise<Counts> {
  const texts = await Promise.all(target.metricsUrls.map(async (url) => (await fetch(url)).text()));
  const text = texts.join('\n');
  return {
    t: performance.now(),
    accepted: sumSamples(text, 'notify_intake_requests_total', { result: 'accepted' }),
    terminal: sumSamples(text, 'notify_notifications_total'),
    delivered: sumSamples(text, 'notify_notifications_total', { outcome: 'delivered' }),
  };
}

/** With several api instances (api, api-2, ...): their sum as well, as 'api total'. */
function withApiTotal(cpu: Record<string, number>): Record<string, number> {
  const apis = Object.entries(cpu).filter(([name]) => /^api(-\d+)?$/.test(name));
  if (apis.length > 1) cpu['api total'] = apis.reduce((sum, [, v]) => sum + v, 0);
  return cpu;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Offers `rate` notifications/s for `seconds` (open loop) and measures the steady window (after
 * `settleSeconds`): what was accepted, what was delivered, how the backlog moved, what Redis
 * and every process spent. Then waits for the drain and samples urgent first-try latencies.
 */
export async function holdRate(target: BenchTarget, o: HoldOptions): Promise<RateResult> {
  const runId = `${o.rate}-${Date.now().toString(36)}`;
  const traffic = trafficMix({ tag: runId, seed: o.seed, urgentShare: o.urgentShare });
  const urgentIds: string[] = [];
  const startedAt = performance.now();
  const settleAt = startedAt + o.settleSeconds * 1_000;
  const next = () => {
    const item = traffic();
    const request = o.shape ? o.shape(item.request, item.index) : item.request;
    if (request.priority === 'urgent' && performance.now() >= settleAt) urgentIds.push(notificationId(target.tenant, request.eventId, request.recipient.id));
    return request;
  };
  const pids = childProcesses();
  const benchCpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const start = { counts: await counts(target), redis: await sampleRedis(target.redis), cpu: sampleCpu(pids), bench: benchCpu() };
  const load = runOpenLoop({
    apiUrls: target.apiUrls ?? [target.apiUrl],
    apiKey: target.apiKey,
    ratePerSecond: o.rate,
    seconds: o.seconds,
    tickMs: 50,
    mode: o.mode,
    next,
    maxInFlight: 256,
    whenFull: 'skip',
  });

  await sleep(Math.max(0, settleAt - performance.now()));
  const a = { counts: await counts(target), redis: await sampleRedis(target.redis), cpu: sampleCpu(pids), bench: benchCpu(), machine: machineCpuSeconds() };
  const series: Counts[] = [a.counts];
  const endAt = startedAt + o.seconds * 1_000;
  while (performance.now() < endAt - 50) {
    await sleep(Math.min(1_000, endAt - performance.now()));
    series.push(await counts(target));
  }
  const b = { counts: series.at(-1) as Counts, redis: await sampleRedis(target.redis), cpu: sampleCpu(pids), bench: benchCpu(), machine: machineCpuSeconds() };
  const windowSeconds = (b.counts.t - a.counts.t) / 1_000;
  const loadResult = await load;

  let drainSeconds: number | null = null;
  let wholeRun: RateResult['wholeRun'] = null;
  if (o.delivering) {
    const drainStart = performance.now();
    const deadline = drainStart + o.drainSeconds * 1_000;
    for (;;) {
      const c = await counts(target);
      if (c.terminal >= c.accepted) {
        drainSeconds = (performance.now() - endAt) / 1_000;
        const run = redisCost(start.redis, await sampleRedis(target.redis));
        const n = c.terminal - start.counts.terminal;
        const per = (v: number) => (n > 0 ? v / n : null);
        const seconds = withApiTotal(cpuShares(start.cpu, sampleCpu(pids), 1));
        seconds.bench = benchCpu() - start.bench;
        wholeRun = {
          notifications: n,
          redisCpuUs: per(run.cpuSeconds * 1e6),
          scriptCalls: per(run.scriptCalls),
          roundTrips: per(run.roundTrips),
          commands: per(run.commands),
          cpuUs: Object.fromEntries(Object.entries(seconds).map(([name, s]) => [name, n > 0 ? (s * 1e6) / n : 0])),
        };
        break;
      }
      if (performance.now() > deadline) break;
      await sleep(250);
    }
  }

  const delivered = b.counts.delivered - a.counts.delivered;
  const terminal = b.counts.terminal - a.counts.terminal;
  const accepted = b.counts.accepted - a.counts.accepted;
  const backlogEnd = o.delivering ? b.counts.accepted - b.counts.terminal : 0;
  const backlogSlope = o.delivering ? slope(series.map((s) => ({ x: (s.t - a.counts.t) / 1_000, y: s.accepted - s.terminal }))) : 0;
  const cost: RedisCost = redisCost(a.redis, b.redis);
  // Per notification: per delivery when delivering, else per accepted notification (intake only).
  const per = o.delivering ? terminal : accepted;
  const perNotification = (v: number) => (per > 0 ? v / per : null);
  const acceptedPerSecond = accepted / windowSeconds;
  const deliveredPerSecond = delivered / windowSeconds;
  const backlogSeconds = backlogEnd / o.rate;
  const verdict = !o.delivering
    ? 'intake only'
    : acceptedPerSecond < 0.98 * o.rate
      ? `intake fell short (${acceptedPerSecond.toFixed(0)}/s accepted)`
      : backlogSeconds > 2
        ? `backlog ${backlogSeconds.toFixed(1)} s of traffic at the end (limit 2 s)`
        : backlogSlope > 0.02 * o.rate
          ? `backlog growing ${backlogSlope.toFixed(0)}/s`
          : 'kept up';
  const cpu = cpuShares(a.cpu, b.cpu, windowSeconds);
  cpu.bench = (b.bench - a.bench) / windowSeconds;
  if (a.machine !== undefined && b.machine !== undefined) {
    // The whole machine, and what processes other than the bench's own used (a shared machine).
    const ours = Object.values(cpu).reduce((sum, v) => sum + v, 0);
    cpu.machine = (b.machine - a.machine) / windowSeconds;
    cpu.others = Math.max(0, cpu.machine - ours);
  }
  withApiTotal(cpu);
  const urgentFirstTry = o.delivering
    ? await sampleUrgentFirstTry(target, urgentIds, o.urgentSample)
    : { count: 0, firstTryShare: null, p50Ms: null, p99Ms: null };
  return {
    offered: o.rate,
    mode: o.mode,
    windowSeconds,
    acceptedPerSecond,
    deliveredPerSecond,
    backlogEnd,
    backlogSeconds,
    backlogSlope,
    drainSeconds,
    sustained: verdict === 'kept up',
    verdict,
    redisCpuUsPerDelivery: perNotification(cost.cpuSeconds * 1e6),
    scriptCallsPerNotification: perNotification(cost.scriptCalls),
    roundTripsPerNotification: perNotification(cost.roundTrips),
    commandsPerNotification: perNotification(cost.commands),
    topCommandsPerNotification: Object.fromEntries(cost.top.map(([name, n]) => [name, per > 0 ? n / per : 0])),
    wholeRun,
    intakeP50Ms: percentile(loadResult.requestLatenciesMs, 50) ?? null,
    intakeP99Ms: percentile(loadResult.requestLatenciesMs, 99) ?? null,
    urgentFirstTry,
    cpu,
    failedRequests: loadResult.failed,
    notSent: loadResult.skippedForBackpressure,
  };
}
