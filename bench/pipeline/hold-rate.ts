import { notificationId } from '@notify/core';
import { percentile, runOpenLoop, trafficMix } from '@notify/platform-kit';
import { drainAndCost, withApiTotal, type RunStart } from './drain';
import { readCounts, type Counts } from './metric-counts';
import { childProcesses, cpuShares, machineCpuSeconds, sampleCpu } from './proc-cpu';
import { redisCost, sampleRedis, type RedisCost } from './redis-info';
import { slope } from './stats';
import { sampleUrgentFirstTry } from './urgent-first-try';
import type { BenchTarget } from './bench-target';
import type { HoldOptions, RateResult } from './rate-result';

export type { BenchTarget } from './bench-target';
export type { HoldOptions, RateResult } from './rate-result';

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
  const start: RunStart = { counts: await readCounts(target), redis: await sampleRedis(target.redis), cpu: sampleCpu(pids), bench: benchCpu() };
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
  const a = { counts: await readCounts(target), redis: await sampleRedis(target.redis), cpu: sampleCpu(pids), bench: benchCpu(), machine: machineCpuSeconds() };
  const series: Counts[] = [a.counts];
  const endAt = startedAt + o.seconds * 1_000;
  while (performance.now() < endAt - 50) {
    await sleep(Math.min(1_000, endAt - performance.now()));
    series.push(await readCounts(target));
  }
  const b = { counts: series.at(-1) as Counts, redis: await sampleRedis(target.redis), cpu: sampleCpu(pids), bench: benchCpu(), machine: machineCpuSeconds() };
  const windowSeconds = (b.counts.t - a.counts.t) / 1_000;
  const loadResult = await load;

  const drained = o.delivering
    ? await drainAndCost(target, { endAt, drainSeconds: o.drainSeconds, history: o.history ?? false, webhooks: o.webhooks ?? false, pids, benchCpu }, start)
    : { drainSeconds: null, historyDrainSeconds: null, webhookDrainSeconds: null, wholeRun: null };

  const delivered = b.counts.delivered - a.counts.delivered;
  const terminal = b.counts.terminal - a.counts.terminal;
  const accepted = b.counts.accepted - a.counts.accepted;
  const webhookCalls = b.counts.webhookDeliveries - a.counts.webhookDeliveries;
  const backlogEnd = o.delivering ? b.counts.accepted - b.counts.terminal : 0;
  const over = (y: (c: Counts) => number) => slope(series.map((s) => ({ x: (s.t - a.counts.t) / 1_000, y: y(s) })));
  const backlogSlope = o.delivering ? over((s) => s.accepted - s.terminal) : 0;
  const historyBacklogSlope = o.history ? over((s) => s.historyBacklog) : 0;
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
          : // The archive queue saw-tooths with the archiver's passes: growing AND long is falling behind.
            b.counts.historyBacklog > 2 * o.rate && historyBacklogSlope > 0.02 * o.rate
            ? `history backlog growing ${historyBacklogSlope.toFixed(0)}/s`
            : o.webhooks && delivered > 0 && webhookCalls < 0.98 * delivered
              ? `webhook calls fell short (${(webhookCalls / delivered).toFixed(2)} per delivered notification)`
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
    : { count: 0, firstTryShare: null, p50Ms: null, p99Ms: null, byAcceptance: [] };
  return {
    offered: o.rate,
    mode: o.mode,
    windowSeconds,
    acceptedPerSecond,
    deliveredPerSecond,
    backlogEnd,
    backlogSeconds,
    backlogSlope,
    drainSeconds: drained.drainSeconds,
    historyDrainSeconds: drained.historyDrainSeconds,
    webhookDrainSeconds: drained.webhookDrainSeconds,
    archivedPerSecond: (b.counts.archived - a.counts.archived) / windowSeconds,
    historyBacklogEnd: b.counts.historyBacklog,
    historyBacklogSlope,
    webhookDeliveriesPerSecond: webhookCalls / windowSeconds,
    webhookFailuresPerSecond: (b.counts.webhookFailures - a.counts.webhookFailures) / windowSeconds,
    webhooksPerDelivered: delivered > 0 ? webhookCalls / delivered : null,
    sustained: verdict === 'kept up',
    verdict,
    redisCpuUsPerDelivery: perNotification(cost.cpuSeconds * 1e6),
    scriptCallsPerNotification: perNotification(cost.scriptCalls),
    roundTripsPerNotification: perNotification(cost.roundTrips),
    commandsPerNotification: perNotification(cost.commands),
    topCommandsPerNotification: Object.fromEntries(cost.top.map(([name, n]) => [name, per > 0 ? n / per : 0])),
    wholeRun: drained.wholeRun,
    intakeP50Ms: percentile(loadResult.requestLatenciesMs, 50) ?? null,
    intakeP99Ms: percentile(loadResult.requestLatenciesMs, 99) ?? null,
    urgentFirstTry,
    cpu,
    failedRequests: loadResult.failed,
    notSent: loadResult.skippedForBackpressure,
    refusedPerSecond: (b.counts.refused - a.counts.refused) / windowSeconds,
    refusedUrgentPerSecond: (b.counts.refusedUrgent - a.counts.refusedUrgent) / windowSeconds,
  };
}
