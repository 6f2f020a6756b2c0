/**
 * bench:tracking — the seed's tracking-budget scenario over real HTTP on 127.0.0.1.
 *
 *   npm run bench:tracking -- [--requests 48] [--long-seconds 10] [--rate 416.67]
 *     [--long-policy weighted] [--connections 256] [--overhead-calls 3000]
 *     [--search-steps 5] [--max-rate 2000] [--shed-loop-delay-ms 40] [--answer-reserve-ms 10]
 *     [--max-in-flight 256] [--cpu-prof DIR]
 *
 * The api app (one process per split policy and cancellation setting: the capacity is stated
 * per api process) and the simulators' tracking stores run as processes through
 * @notify/platform-kit, so the client, the gateway and the stores do not share an event loop.
 * Everything is bounded in count and time; output is a measurement on this machine, printed
 * beside the seed's logical-clock table.
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import { resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { SEED_PUBLISHED_TABLE, slotsHeld, SPLIT_POLICY_NAMES, TRACKING_REFERENCE, type SplitPolicyName } from '@notify/budget-chain';
import { sumSamples } from '@notify/platform-kit';
import { cpuMeter, type CpuShare } from './tracking/cpu';
import { measureOverhead } from './tracking/overhead';
import { BENCH_KEY, startTrackingBed, type TrackingApi } from './tracking/processes';
import { runBench } from './tracking/run-bench';
import { log, mean, median, pad, quantile } from './tracking/stats';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number`);
  return value;
}
function policyFlag(name: string, fallback: SplitPolicyName): SplitPolicyName {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? (process.argv[i + 1] ?? '') : fallback;
  if (!(SPLIT_POLICY_NAMES as readonly string[]).includes(value)) throw new Error(`--${name} must be one of ${SPLIT_POLICY_NAMES.join(', ')}`);
  return value as SplitPolicyName;
}
const opts = {
  requests: Math.min(10_000, flag('requests', 48)),
  longSeconds: Math.min(120, flag('long-seconds', 10)),
  rate: Math.min(2000, flag('rate', TRACKING_REFERENCE.peakReadsPerSecond)),
  connections: flag('connections', 256),
  overheadCalls: Math.min(50_000, flag('overhead-calls', 3000)),
  longPolicy: policyFlag('long-policy', 'weighted'),
  searchSteps: Math.min(8, flag('search-steps', 5)),
  maxRate: Math.min(2000, flag('max-rate', 2000)),
  // The bench's stated conditions, passed to every api process (they are also the api's defaults today).
  answerReserveMs: flag('answer-reserve-ms', 10),
  shedLoopDelayMs: flag('shed-loop-delay-ms', 40),
  maxInFlight: flag('max-in-flight', 256),
};
/** --cpu-prof DIR: every api process writes DIR/api-<pid>.cpuprofile on exit (read it with bench/pipeline/profile-top.ts, the one profile summariser). */
const cpuProfIndex = process.argv.indexOf('--cpu-prof');
const cpuProfileDir = cpuProfIndex >= 0 ? process.argv[cpuProfIndex + 1] : undefined;
if (cpuProfIndex >= 0 && (cpuProfileDir === undefined || cpuProfileDir.startsWith('--'))) throw new Error('--cpu-prof needs a directory');
if (process.argv.includes('--in-process')) throw new Error('--in-process is gone: bench/ runs the apps as processes only (it imports packages, never an app)');

/** The TRACKING_ variables of one api process: its split policy, cancellation, and the bench's conditions. */
function apiEnv(policy: SplitPolicyName, cancel: boolean): Record<string, string> {
  return {
    TRACKING_SPLIT_POLICY: policy,
    TRACKING_CANCEL: String(cancel),
    TRACKING_STORE_CONNECTIONS: String(opts.connections),
    TRACKING_ANSWER_RESERVE_MS: String(opts.answerReserveMs),
    TRACKING_SHED_LOOP_DELAY_MS: String(opts.shedLoopDelayMs),
    TRACKING_MAX_IN_FLIGHT: String(opts.maxInFlight),
  };
}

/** The api's STORE_CANCEL_GRACE_MS (apps/api/src/tracking/router.ts; bench/ imports packages only): the overhead is measured as the api runs its reads. */
const API_STORE_CANCEL_GRACE_MS = 100;

const client = new Agent({ connections: 512, keepAliveTimeout: 10_000 });
/** The stores' process id, for the CPU columns (set once the bed is up). */
let storesPid: number | undefined;

async function getJson<T>(url: string, method: 'GET' | 'POST' = 'GET', body?: unknown): Promise<T> {
  const res = await request(url, {
    method,
    dispatcher: client,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.body.json()) as T;
}

interface Sample {
  status: number;
  ms: number;
  steps: { step: string; outcome: string }[];
  failedStep: string | undefined;
  byGuard: boolean;
  /** When it was sent, in ms since the open loop started (0 for the sequential rows). */
  sentAtMs: number;
}

/** One query as the client sees it; a transport error is status 0 (counted under "other"), never a crash. */
async function track(url: string, loopStart = performance.now()): Promise<Sample> {
  const started = performance.now();
  const sentAtMs = started - loopStart;
  try {
    const res = await request(url, { dispatcher: client, headers: { authorization: `Bearer ${BENCH_KEY}` } });
    const body = (await res.body.json()) as { budget?: { steps?: Sample['steps']; answeredBy?: string }; error?: { step?: string } };
    return {
      status: res.statusCode,
      ms: performance.now() - started,
      steps: body.budget?.steps ?? [],
      failedStep: body.error?.step,
      byGuard: body.budget?.answeredBy === 'deadline-guard',
      sentAtMs,
    };
  } catch {
    return { status: 0, ms: performance.now() - started, steps: [], failedStep: undefined, byGuard: false, sentAtMs };
  }
}

/** One counter of the api's /metrics, summed over its series. */
async function apiMetric(api: TrackingApi, name: string): Promise<number> {
  const res = await request(api.metricsUrl, { dispatcher: client });
  return sumSamples(await res.body.text(), name);
}

/** The part of the stores' GET /control/stats the bench reads. */
interface StoresStats {
  inFlight: number;
  abandonedWorkMs: number;
}

async function settle(storesUrl: string): Promise<StoresStats> {
  for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
    const stats = await getJson<StoresStats>(`${storesUrl}/control/stats`);
    if (stats.inFlight === 0) return stats;
  }
  throw new Error('stores still busy after 10 s');
}

async function prepare(storesUrl: string, slow: boolean, honour: boolean): Promise<void> {
  await getJson(`${storesUrl}/control/reset`, 'POST');
  await getJson(`${storesUrl}/control/tariff`, 'POST', { mode: slow ? 'slow' : 'healthy' }); // AY10 is "slow"
  await getJson(`${storesUrl}/control/cancellation`, 'POST', { honour });
}

interface Row {
  answered: number;
  dropped: number;
  shed?: number;
  failTariff: number;
  failMeasurement: number;
  medianMs: number;
  worstMs: number;
  meanMs: number;
  slots: number;
  abandonedMs: number;
}

function summarise(samples: readonly Sample[], abandonedMs: number): Row {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const fails = (step: string): number => samples.filter((s) => s.failedStep === step || s.steps.some((x) => x.step === step && x.outcome !== 'ok')).length;
  const answered = samples.filter((s) => s.status === 200).length;
  return {
    answered,
    dropped: samples.length - answered,
    shed: samples.filter((s) => s.status === 503).length,
    failTariff: fails('tariff'),
    failMeasurement: fails('measurement'),
    medianMs: quantile(ms, 0.5),
    worstMs: ms[ms.length - 1] ?? 0,
    meanMs: mean(ms),
    slots: slotsHeld(mean(ms)),
    abandonedMs,
  };
}

const HEADER = `${'regime'.padEnd(12)}${'policy'.padEnd(11)}${'cancel'.padEnd(7)}${'source'.padEnd(9)}${pad('answered', 9)}${pad('dropped', 8)}${pad('fail:tariff', 12)}${pad('fail:meas', 10)}${pad('median', 8)}${pad('worst', 7)}${pad('mean', 7)}${pad('slots', 7)}${pad('abandoned ms', 13)}${pad('shed', 6)}`;

function line(regime: string, policy: string, cancel: string, source: string, r: Row | undefined): string {
  if (r === undefined) return `${regime.padEnd(12)}${policy.padEnd(11)}${cancel.padEnd(7)}${source.padEnd(9)}${pad('(no seed row for this policy)', 40)}`;
  const f = (n: number): string => n.toFixed(1);
  return `${regime.padEnd(12)}${policy.padEnd(11)}${cancel.padEnd(7)}${source.padEnd(9)}${pad(r.answered, 9)}${pad(r.dropped, 8)}${pad(r.failTariff, 12)}${pad(r.failMeasurement, 10)}${pad(f(r.medianMs), 8)}${pad(f(r.worstMs), 7)}${pad(f(r.meanMs), 7)}${pad(f(r.slots), 7)}${pad(Math.round(r.abandonedMs), 13)}${pad(r.shed ?? '', 6)}`;
}

/** One api process per (policy, cancel) pair, started together and stopped when the table is done. */
async function scenarios(startApi: (env: Record<string, string>) => Promise<TrackingApi>, storesUrl: string): Promise<void> {
  log(`-- ${opts.requests} sequential requests per row; "seed" = published logical-clock row (for cancel=on: same caller numbers, no abandoned work) --`);
  const pairs = SPLIT_POLICY_NAMES.flatMap((policy) => [false, true].map((cancel) => ({ policy, cancel, key: `${policy}-${cancel ? 'on' : 'off'}` })));
  const started = await Promise.allSettled(pairs.map((p) => startApi(apiEnv(p.policy, p.cancel))));
  const apis = new Map<string, TrackingApi>();
  started.forEach((r, i) => {
    if (r.status === 'fulfilled') apis.set(pairs[i]?.key ?? '', r.value);
  });
  try {
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    log(HEADER);
    await scenarioRows(apis, storesUrl);
  } finally {
    await Promise.all([...apis.values()].map((a) => a.stop()));
  }
}

async function scenarioRows(apis: ReadonlyMap<string, TrackingApi>, storesUrl: string): Promise<void> {
  for (const regime of ['healthy', 'tariff-slow'] as const) {
    for (const policy of SPLIT_POLICY_NAMES) {
      for (const cancel of [false, true]) {
        await prepare(storesUrl, regime === 'tariff-slow', cancel);
        const samples: Sample[] = [];
        for (let i = 0; i < opts.requests; i += 1) samples.push(await track(`${apis.get(`${policy}-${cancel ? 'on' : 'off'}`)?.url}/v1/tracking/SHP-${i}`));
        const stats = await settle(storesUrl);
        const seed = SEED_PUBLISHED_TABLE.find((r) => r.regime === regime && r.policy === policy);
        const seedRow = seed && { ...seed, slots: seed.slotsHeld, abandonedMs: cancel ? 0 : seed.wastedMs };
        log(line(regime, policy, cancel ? 'on' : 'off', 'seed', seedRow));
        log(line('', '', '', 'measured', summarise(samples, stats.abandonedWorkMs)));
      }
    }
  }
}

interface OpenLoopResult {
  rate: number;
  cancel: boolean;
  sent: number;
  lambda: number;
  ms: number[];
  samples: Sample[];
  inFlightMean: number;
  abandonedWorkMs: number;
  elapsedS: number;
  /** Client-process event-loop delay during the run (ms): how much of the client's clock is its own lateness. */
  clientLoopP99: number;
  /** Deltas of the api's own counters over the run. */
  apiLate: number;
  apiShed: number;
  /** CPU per query of the api, the stores and this client, and the cores others used meanwhile. */
  cpu: CpuShare;
}

/**
 * Open loop at `rate`/s for --long-seconds under AY10. The pacer is a 1 ms timer that sends
 * every request due (never a busy loop: on 2 cores a spinning client takes a core from the
 * process under test); the sent count and the measured lambda are printed.
 */
async function openLoop(api: TrackingApi, storesUrl: string, cancel: boolean, rate: number): Promise<OpenLoopResult> {
  await prepare(storesUrl, true, cancel);
  const lateBefore = await apiMetric(api, 'notify_tracking_late_answers_total');
  const shedBefore = await apiMetric(api, 'notify_tracking_shed_total');
  const total = Math.round(rate * opts.longSeconds);
  const interval = 1000 / rate;
  const samples: Promise<Sample>[] = [];
  let inFlight = 0;
  const inFlightSamples: number[] = [];
  const sampler = setInterval(() => inFlightSamples.push(inFlight), 10);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const meter = cpuMeter(api.pid, storesPid);
  const t0 = performance.now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor((performance.now() - t0) / interval) + 1);
    for (; sent < due; sent += 1) {
      if (inFlight >= 3000) throw new Error('more than 3000 requests in flight: the gateway is not bounding its calls');
      inFlight += 1;
      samples.push(
        track(`${api.url}/v1/tracking/SHP-L${sent}`, t0).finally(() => {
          inFlight -= 1;
        }),
      );
    }
    if (performance.now() - t0 > opts.longSeconds * 1000 + 30_000) throw new Error('the pacer fell 30 s behind');
    await new Promise((r) => setTimeout(r, 1));
  }
  // The arrival rate is the sending span's, not the run's: waiting for the slowest answer
  // after the last send is not the client falling behind.
  const sendSpanS = (performance.now() - t0) / 1000;
  const done = await Promise.all(samples);
  const elapsedS = (performance.now() - t0) / 1000;
  const cpu = meter.stop(total);
  loop.disable();
  clearInterval(sampler);
  const stats = await settle(storesUrl);
  const shedAfter = await apiMetric(api, 'notify_tracking_shed_total');
  return {
    rate,
    cancel,
    sent: total,
    lambda: total > 1 ? (total - 1) / Math.max(1e-3, sendSpanS) : total / elapsedS,
    ms: done.map((x) => x.ms).sort((x, y) => x - y),
    samples: done,
    inFlightMean: mean(inFlightSamples),
    abandonedWorkMs: stats.abandonedWorkMs,
    elapsedS,
    clientLoopP99: Math.max(0, loop.percentile(99) / 1e6 - 5),
    apiLate: (await apiMetric(api, 'notify_tracking_late_answers_total')) - lateBefore,
    apiShed: shedAfter - shedBefore,
    cpu,
  };
}

const budgetMs = TRACKING_REFERENCE.budgetMs;
const pastBudget = (r: OpenLoopResult): number[] => r.ms.filter((m) => m > budgetMs);
const count = (r: OpenLoopResult, status: number): number => r.samples.filter((x) => x.status === status).length;

function littleLine(r: OpenLoopResult): string {
  const w = mean(r.ms);
  const abandonedSlots = r.abandonedWorkMs / 1000 / r.elapsedS; // mean concurrent abandoned reads
  return `${opts.longPolicy.padEnd(11)}${(r.cancel ? 'on' : 'off').padEnd(7)}${pad(r.sent, 6)}${pad(r.lambda.toFixed(1), 9)}${pad(count(r, 200), 9)}${pad(quantile(r.ms, 0.5).toFixed(1), 8)}${pad(quantile(r.ms, 0.99).toFixed(1), 8)}${pad((r.ms[r.ms.length - 1] ?? 0).toFixed(1), 8)}${pad(((r.lambda * w) / 1000).toFixed(1), 10)}${pad(r.inFlightMean.toFixed(1), 10)}${pad(Math.round(r.abandonedWorkMs), 11)}${pad(abandonedSlots.toFixed(1), 11)}${pad(((r.lambda * w) / 1000 + abandonedSlots).toFixed(1), 8)}`;
}

const BUDGET_HEADER = `${pad('rate/s', 8)}${pad('lambda/s', 9)}${pad('sent', 6)}${pad('200', 6)}${pad('504', 6)}${pad('guard', 6)}${pad('503', 6)}${pad('other', 6)}${pad('p50', 8)}${pad('p99', 8)}${pad('p99.9', 8)}${pad('worst', 8)}${pad('past 200', 9)}${pad('share %', 8)}${pad('overrun', 9)}${pad('shed %', 7)}${pad('api late', 9)}${pad('client lag', 11)}${pad('api µs/q', 9)}${pad('stores', 7)}${pad('client', 7)}${pad('api core', 9)}${pad('others', 7)}${pad('idle', 5)}${pad('late sent at s', 16)}`;

function budgetLine(r: OpenLoopResult): string {
  const late = pastBudget(r);
  const worst = r.ms[r.ms.length - 1] ?? 0;
  const other = r.samples.filter((x) => ![200, 503, 504].includes(x.status)).length;
  // "*": the client could not send at the rate asked (a saturated machine), so the row measures less load than its label.
  const short = r.lambda < 0.95 * r.rate ? '*' : '';
  const us = (n: number): string => (Number.isNaN(n) ? '?' : n.toFixed(0));
  const cores = (n: number): string => (Number.isNaN(n) ? '?' : n.toFixed(2));
  return `${pad(r.rate.toFixed(2), 8)}${pad(`${short}${r.lambda.toFixed(1)}`, 9)}${pad(r.sent, 6)}${pad(count(r, 200), 6)}${pad(count(r, 504), 6)}${pad(r.samples.filter((x) => x.byGuard).length, 6)}${pad(count(r, 503), 6)}${pad(other, 6)}${pad(quantile(r.ms, 0.5).toFixed(1), 8)}${pad(quantile(r.ms, 0.99).toFixed(1), 8)}${pad(quantile(r.ms, 0.999).toFixed(1), 8)}${pad(worst.toFixed(1), 8)}${pad(late.length, 9)}${pad(((100 * late.length) / Math.max(1, r.sent)).toFixed(2), 8)}${pad(late.length === 0 ? '-' : `+${(worst - budgetMs).toFixed(1)}`, 9)}${pad(((100 * count(r, 503)) / Math.max(1, r.sent)).toFixed(1), 7)}${pad(r.apiLate, 9)}${pad(r.clientLoopP99.toFixed(1), 11)}${pad(us(r.cpu.apiUsPerQuery), 9)}${pad(us(r.cpu.storesUsPerQuery), 7)}${pad(us(r.cpu.clientUsPerQuery), 7)}${pad(cores(r.cpu.apiCores), 9)}${pad(cores(r.cpu.othersCores), 7)}${pad(cores(r.cpu.idleCores), 5)}${pad(lateSentAt(r), 16)}`;
}

/** When the answers past the budget were sent (s into the run, first-last): a cold start shows as a range near 0. */
function lateSentAt(r: OpenLoopResult): string {
  const at = r.samples.filter((x) => x.ms > budgetMs).map((x) => x.sentAtMs / 1000);
  return at.length === 0 ? '-' : `${Math.min(...at).toFixed(2)}-${Math.max(...at).toFixed(2)}`;
}

/**
 * Finds the rate where the first answer past the budget appears, in bounded steps: up by
 * x1.25 from --rate while clean (or down by x0.8 while not), then two bisections between
 * the last clean rate and the first with an overrun. Returns the highest clean rate seen.
 */
async function searchFirstOverrun(api: TrackingApi, storesUrl: string, first: OpenLoopResult): Promise<void> {
  log(
    `-- answers past the ${budgetMs} ms budget per rate (AY10, ${opts.longPolicy}, cancellation on, ${opts.longSeconds} s each; client clock; "guard" = 504s written by the deadline guard; "api late" = the api's own count of answers written after their budget; "client lag" = the client process's loop delay p99, ms; "api µs/q", "stores", "client" = CPU µs per query of each process (/proc); "api core" = cores the api used; "others" = cores used by processes outside the bench, "idle" = cores left idle: others > 0 with idle ~0 means the machine, not the api, set the row) --`,
  );
  log(BUDGET_HEADER);
  const runs: OpenLoopResult[] = [];
  const run = async (rate: number): Promise<boolean> => {
    const r = await openLoop(api, storesUrl, true, Math.round(rate * 100) / 100);
    runs.push(r);
    log(budgetLine(r));
    return pastBudget(r).length === 0;
  };
  let clean: number | undefined;
  let dirty: number | undefined;
  let rate = opts.rate;
  let steps = 0;
  runs.push(first);
  log(budgetLine(first));
  const firstClean = pastBudget(first).length === 0;
  steps += 1;
  if (firstClean) clean = rate;
  else dirty = rate;
  while (steps < opts.searchSteps) {
    if (dirty === undefined) {
      if (rate >= opts.maxRate) break;
      rate = Math.min(opts.maxRate, rate * 1.25);
    } else if (clean === undefined) {
      rate = rate * 0.8;
      if (rate < 50) break;
    } else {
      if (dirty - clean < 0.05 * clean) break;
      rate = (clean + dirty) / 2;
    }
    const ok = await run(rate);
    steps += 1;
    if (ok) clean = Math.max(clean ?? 0, rate);
    else dirty = Math.min(dirty ?? Number.POSITIVE_INFINITY, rate);
  }
  const shedFree = runs.filter((r) => pastBudget(r).length === 0 && count(r, 503) === 0).map((r) => r.rate);
  if (runs.some((r) => r.lambda < 0.95 * r.rate))
    log('* lambda below 95 % of the rate asked: the client could not keep the schedule (machine saturated); that row understates the load');
  log(
    `first overrun: ${dirty === undefined ? `none up to ${Math.max(...runs.map((r) => r.rate)).toFixed(2)}/s` : `at ${dirty.toFixed(2)}/s`}; highest rate with no answer past the budget: ${clean === undefined ? 'none tested' : `${clean.toFixed(2)}/s`}; highest with none past the budget and none shed: ${shedFree.length === 0 ? 'none tested' : `${Math.max(...shedFree).toFixed(2)}/s`} (${steps} runs)`,
  );
  // What the api itself costs, apart from the machine: its CPU per query (median over the runs)
  // gives the rate one api process would serve with a core to itself; the cores it actually
  // got and the cores others took say how far this machine was from that.
  const apiUs = median(runs.map((r) => r.cpu.apiUsPerQuery).filter((x) => !Number.isNaN(x)));
  const ourUs = median(runs.map((r) => r.cpu.apiUsPerQuery + r.cpu.storesUsPerQuery + r.cpu.clientUsPerQuery).filter((x) => !Number.isNaN(x)));
  if (apiUs > 0)
    log(
      `api CPU per query ${apiUs.toFixed(0)} µs (median of the runs; api + stores + client ${ourUs.toFixed(0)} µs): one api process with a core to itself would serve ~${Math.floor(1e6 / apiUs)}/s; during these runs it got ${mean(runs.map((r) => r.cpu.apiCores)).toFixed(2)} cores on average while processes outside the bench used ${mean(runs.map((r) => r.cpu.othersCores)).toFixed(2)} and ${mean(runs.map((r) => r.cpu.idleCores)).toFixed(2)} stayed idle`,
    );
}

async function main(): Promise<void> {
  const cpus = os.cpus();
  log(
    `bench:tracking — MEASURED on this machine (not the seed's logical clock): ${cpus[0]?.model ?? 'unknown cpu'} x ${cpus.length}, ${os.platform()} ${os.release()}, node ${process.version}, ${new Date().toISOString()}`,
  );
  log(
    `load average at start ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')} (1/5/15 min; other processes on these cores move every timing below)`,
  );
  log(
    `budget ${TRACKING_REFERENCE.budgetMs} ms, gateway share ${TRACKING_REFERENCE.gatewayShareMs} ms, stores in the simulators process, api store connections ${opts.connections}, timings are client-side wall clock (the seed adds a fixed 20 ms gateway share; here the gateway's time is real)`,
  );
  log(
    `api: one process per (policy, cancel) setting, started for its table; answer reserve ${opts.answerReserveMs} ms (+ the loop's measured delay, capped at the ${TRACKING_REFERENCE.gatewayShareMs} ms gateway share); shed on loop delay p90 > ${opts.shedLoopDelayMs || 'never'} ms or ${opts.maxInFlight || 'unbounded'} in flight`,
  );
  if (cpuProfileDir !== undefined) mkdirSync(resolve(cpuProfileDir), { recursive: true });
  const bed = await startTrackingBed(cpuProfileDir === undefined ? {} : { cpuProfileDir: resolve(cpuProfileDir) });
  storesPid = bed.storesPid;
  try {
    log();
    if (opts.requests > 0) await scenarios(bed.startApi, bed.storesUrl);
    if (opts.longSeconds > 0) {
      log();
      log(
        `-- AY10 open loop at ${opts.rate}/s for ${opts.longSeconds} s (K01 read rate); L = lambda x W vs sampled in-flight; abandoned slots = abandoned work / time --`,
      );
      log(
        `${'policy'.padEnd(11)}${'cancel'.padEnd(7)}${pad('sent', 6)}${pad('lambda/s', 9)}${pad('answered', 9)}${pad('p50', 8)}${pad('p99', 8)}${pad('worst', 8)}${pad('L=lambdaW', 10)}${pad('sampled L', 10)}${pad('abandon ms', 11)}${pad('aband.slots', 11)}${pad('total', 8)}`,
      );
      // Each api warms up against the stores before it reports ready: healthy stores that honour
      // cancellation, so no warm-up read is still running (and counted) when the run starts.
      const startWarm = async (cancel: boolean): Promise<TrackingApi> => {
        await prepare(bed.storesUrl, false, true);
        const api = await bed.startApi(apiEnv(opts.longPolicy, cancel));
        await settle(bed.storesUrl);
        return api;
      };
      const offApi = await startWarm(false);
      const off = await openLoop(offApi, bed.storesUrl, false, opts.rate).finally(() => offApi.stop());
      log(littleLine(off));
      const onApi = await startWarm(true);
      try {
        const on = await openLoop(onApi, bed.storesUrl, true, opts.rate);
        log(littleLine(on));
        log(`seed (logical, weighted, AY10): caller slots 40.2; abandoned slots without cancel 96.5 (total 136.7); with cancel 40.2 total`);
        log(
          `cancellation off at ${opts.rate}/s: ${pastBudget(off).length} of ${off.sent} answers past the budget (worst ${(off.ms[off.ms.length - 1] ?? 0).toFixed(1)} ms; sent at ${lateSentAt(off)} s)`,
        );
        log();
        await searchFirstOverrun(onApi, bed.storesUrl, on);
      } finally {
        await onApi.stop();
      }
    }
    log();
    if (opts.overheadCalls > 0) await measureOverhead(opts.overheadCalls, API_STORE_CANCEL_GRACE_MS);
    const headerBytes = Buffer.byteLength('x-request-timeout-ms: 173\r\n');
    log(
      `load average at end ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' / ')}`,
    );
    log(
      `deadline header on the wire: ${headerBytes} B per store call x 3 store calls = ${headerBytes * 3} B/request (seed: 8 B x 5 sub-calls = 40 B; its 2 branch hops are in-process calls here)`,
    );
  } finally {
    await bed.stop();
    await client.close();
  }
}

runBench(main);
