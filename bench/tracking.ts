/**
 * bench:tracking — the seed's tracking-budget scenario over real HTTP on 127.0.0.1.
 *
 *   npm run bench:tracking -- [--requests 48] [--long-seconds 10] [--rate 416.67]
 *     [--long-policy weighted] [--connections 256] [--overhead-calls 3000] [--in-process]
 *     [--search-steps 5] [--max-rate 2000] [--shed-loop-delay-ms 40] [--answer-reserve-ms 10]
 *     [--max-in-flight 256]
 *
 * The api (one process: the capacity is stated per api process) and the stores each run in
 * a child process (unless --in-process), so the client, the gateway and the stores do not
 * share an event loop. Everything is bounded in count and time; output is a measurement on
 * this machine, printed beside the seed's logical-clock table.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import express from 'express';
import pino from 'pino';
import { Registry } from 'prom-client';
import { Agent, request } from 'undici';
import {
  budgetedGetJson, createBudgetMetrics, Deadline, LoadShedder, runStep, SEED_PUBLISHED_TABLE, slotsHeld, SPLIT_POLICY_NAMES, TRACKING_REFERENCE, type SplitPolicyName,
} from '@notify/budget-chain';
import { sumSamples } from '@notify/platform-kit';
import { createTrackingRouter, loadTrackingConfig, type TrackingRouter } from '../apps/api/src/tracking';
import { createTrackingStoresApp, loadTrackingStoresConfig, type TrackingStoresStats } from '../apps/simulators/src/tracking';
import { restoreTariff, slowTariff } from '../apps/chaos/src/commands/tracking-store';

const log = (line = ''): void => console.log(line);
const silent = pino({ level: 'silent' });

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number`);
  return value;
}
function policyFlag(name: string, fallback: SplitPolicyName): SplitPolicyName {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? process.argv[i + 1] ?? '' : fallback;
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
  inProcess: process.argv.includes('--in-process'),
  searchSteps: Math.min(8, flag('search-steps', 5)),
  maxRate: Math.min(2000, flag('max-rate', 2000)),
};
/** The api's load-shedding and reserve settings, passed to the api child as TRACKING_ variables. */
function apiEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, variable] of [['shed-loop-delay-ms', 'TRACKING_SHED_LOOP_DELAY_MS'], ['answer-reserve-ms', 'TRACKING_ANSWER_RESERVE_MS'], ['max-in-flight', 'TRACKING_MAX_IN_FLIGHT']] as const) {
    const i = process.argv.indexOf(`--${name}`);
    if (i >= 0) env[variable] = String(flag(name, 0));
  }
  return env;
}

async function listen(server: Server): Promise<string> {
  // Longer than the client's 10 s idle timeout: a server closing an idle socket the client is
  // about to reuse shows up as ECONNRESET, a bench artefact, not the path under test.
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Child-process mode: serve the stores and report the port over IPC. */
async function serveStores(): Promise<void> {
  const stores = createTrackingStoresApp({ config: loadTrackingStoresConfig({}), registry: new Registry(), logger: silent });
  const server = createServer(stores.app);
  const url = await listen(server);
  process.send?.({ url });
  process.on('disconnect', () => {
    stores.close();
    server.closeAllConnections();
    server.close();
  });
}

/**
 * The api side: one tracking router per (policy, cancel) pair, mounted at /<policy>-<on|off>,
 * sharing one load shedder (one process, one event loop), and /metrics.
 */
async function serveApi(storesUrl: string, env: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  const registry = new Registry();
  const app = express();
  const routers: TrackingRouter[] = [];
  const base = loadTrackingConfig({ TRACKING_STORES_BASE_URL: storesUrl, ...env });
  const metrics = createBudgetMetrics(registry);
  const shedder = new LoadShedder({ maxLoopDelayMs: base.shedLoopDelayMs, maxInFlight: base.maxInFlight, onWindow: (ms) => metrics.loopDelay.set(ms / 1000) });
  for (const policy of SPLIT_POLICY_NAMES) {
    for (const cancel of [true, false]) {
      const config = loadTrackingConfig({ ...env, TRACKING_STORES_BASE_URL: storesUrl, TRACKING_SPLIT_POLICY: policy, TRACKING_CANCEL: String(cancel), TRACKING_STORE_CONNECTIONS: String(opts.connections) });
      const router = createTrackingRouter({ config, registry, logger: silent, loadShedder: shedder });
      routers.push(router);
      app.use(`/${policy}-${cancel ? 'on' : 'off'}`, router);
    }
  }
  app.get('/metrics', (_req, res) => { void registry.metrics().then((text) => res.type('text/plain').send(text)); });
  const server = createServer(app);
  const url = await listen(server);
  return {
    url,
    stop: async () => {
      shedder.stop();
      await Promise.all(routers.map((r) => r.close()));
      server.closeAllConnections();
      server.close();
    },
  };
}

async function serveApiChild(): Promise<void> {
  const i = process.argv.indexOf('--serve-api');
  const env = JSON.parse(process.argv[i + 2] ?? '{}') as Record<string, string>;
  const api = await serveApi(process.argv[i + 1] ?? '', env);
  process.send?.({ url: api.url });
  process.on('disconnect', () => { void api.stop(); });
}

/** Runs `args` of this file in a child process that reports its URL over IPC. */
async function child(args: string[], what: string): Promise<{ url: string; stop(): Promise<void> }> {
  const proc = fork(__filename, args, { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} child did not start in 20 s`)), 20_000); });
  const [message] = (await Promise.race([once(proc, 'message'), timeout]).finally(() => clearTimeout(timer))) as [{ url: string }];
  return { url: message.url, stop: async () => { proc.disconnect(); await once(proc, 'exit'); } };
}

async function startStores(): Promise<{ url: string; stop(): Promise<void> }> {
  if (!opts.inProcess) return child(['--serve-stores'], 'stores');
  const stores = createTrackingStoresApp({ config: loadTrackingStoresConfig({}), registry: new Registry(), logger: silent });
  const server = createServer(stores.app);
  const url = await listen(server);
  return { url, stop: async () => { stores.close(); server.closeAllConnections(); server.close(); } };
}

async function startApi(storesUrl: string): Promise<{ url: string; stop(): Promise<void> }> {
  if (opts.inProcess) return serveApi(storesUrl, apiEnv());
  return child(['--serve-api', storesUrl, JSON.stringify(apiEnv())], 'api');
}

const client = new Agent({ connections: 512, keepAliveTimeout: 10_000 });

async function getJson<T>(url: string, method: 'GET' | 'POST' = 'GET', body?: unknown): Promise<T> {
  const res = await request(url, { method, dispatcher: client, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await res.body.json()) as T;
}

interface Sample { status: number; ms: number; steps: { step: string; outcome: string }[]; failedStep: string | undefined; byGuard: boolean }

/** One query as the client sees it; a transport error is status 0 (counted under "other"), never a crash. */
async function track(url: string): Promise<Sample> {
  const started = performance.now();
  try {
    const res = await request(url, { dispatcher: client });
    const body = (await res.body.json()) as { budget?: { steps?: Sample['steps']; answeredBy?: string }; error?: { step?: string } };
    return { status: res.statusCode, ms: performance.now() - started, steps: body.budget?.steps ?? [], failedStep: body.error?.step, byGuard: body.budget?.answeredBy === 'deadline-guard' };
  } catch {
    return { status: 0, ms: performance.now() - started, steps: [], failedStep: undefined, byGuard: false };
  }
}

/** One counter of the api's /metrics, summed over its series. */
async function apiMetric(apiUrl: string, name: string): Promise<number> {
  const res = await request(`${apiUrl}/metrics`, { dispatcher: client });
  return sumSamples(await res.body.text(), name);
}

async function settle(storesUrl: string): Promise<TrackingStoresStats> {
  for (const end = Date.now() + 10_000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
    const stats = await getJson<TrackingStoresStats>(`${storesUrl}/control/stats`);
    if (stats.inFlight === 0) return stats;
  }
  throw new Error('stores still busy after 10 s');
}

async function prepare(storesUrl: string, slow: boolean, honour: boolean): Promise<void> {
  await getJson(`${storesUrl}/control/reset`, 'POST');
  await (slow ? slowTariff(storesUrl) : restoreTariff(storesUrl));
  await getJson(`${storesUrl}/control/cancellation`, 'POST', { honour });
}

const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const pad = (v: string | number, w: number): string => String(v).padStart(w);

interface Row { answered: number; dropped: number; shed?: number; failTariff: number; failMeasurement: number; medianMs: number; worstMs: number; meanMs: number; slots: number; abandonedMs: number }

function summarise(samples: readonly Sample[], abandonedMs: number): Row {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const fails = (step: string): number => samples.filter((s) => s.failedStep === step || s.steps.some((x) => x.step === step && x.outcome !== 'ok')).length;
  const answered = samples.filter((s) => s.status === 200).length;
  return {
    answered, dropped: samples.length - answered, shed: samples.filter((s) => s.status === 503).length, failTariff: fails('tariff'), failMeasurement: fails('measurement'),
    medianMs: quantile(ms, 0.5), worstMs: ms[ms.length - 1] ?? 0, meanMs: mean(ms), slots: slotsHeld(mean(ms)), abandonedMs,
  };
}

const HEADER = `${'regime'.padEnd(12)}${'policy'.padEnd(11)}${'cancel'.padEnd(7)}${'source'.padEnd(9)}${pad('answered', 9)}${pad('dropped', 8)}${pad('fail:tariff', 12)}${pad('fail:meas', 10)}${pad('median', 8)}${pad('worst', 7)}${pad('mean', 7)}${pad('slots', 7)}${pad('abandoned ms', 13)}${pad('shed', 6)}`;

function line(regime: string, policy: string, cancel: string, source: string, r: Row | undefined): string {
  if (r === undefined) return `${regime.padEnd(12)}${policy.padEnd(11)}${cancel.padEnd(7)}${source.padEnd(9)}${pad('(no seed row for this policy)', 40)}`;
  const f = (n: number): string => n.toFixed(1);
  return `${regime.padEnd(12)}${policy.padEnd(11)}${cancel.padEnd(7)}${source.padEnd(9)}${pad(r.answered, 9)}${pad(r.dropped, 8)}${pad(r.failTariff, 12)}${pad(r.failMeasurement, 10)}${pad(f(r.medianMs), 8)}${pad(f(r.worstMs), 7)}${pad(f(r.meanMs), 7)}${pad(f(r.slots), 7)}${pad(Math.round(r.abandonedMs), 13)}${pad(r.shed ?? '', 6)}`;
}

async function scenarios(apiUrl: string, storesUrl: string): Promise<void> {
  log(`-- ${opts.requests} sequential requests per row; "seed" = published logical-clock row (for cancel=on: same caller numbers, no abandoned work) --`);
  log(HEADER);
  for (const regime of ['healthy', 'tariff-slow'] as const) {
    for (const policy of SPLIT_POLICY_NAMES) {
      for (const cancel of [false, true]) {
        await prepare(storesUrl, regime === 'tariff-slow', cancel);
        const samples: Sample[] = [];
        for (let i = 0; i < opts.requests; i += 1) samples.push(await track(`${apiUrl}/${policy}-${cancel ? 'on' : 'off'}/SHP-${i}`));
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
}

/**
 * Open loop at `rate`/s for --long-seconds under AY10. The pacer is a 1 ms timer that sends
 * every request due (never a busy loop: on 2 cores a spinning client takes a core from the
 * process under test); the sent count and the measured lambda are printed.
 */
async function openLoop(apiUrl: string, storesUrl: string, cancel: boolean, rate: number): Promise<OpenLoopResult> {
  await prepare(storesUrl, true, cancel);
  const lateBefore = await apiMetric(apiUrl, 'notify_tracking_late_answers_total');
  const shedBefore = await apiMetric(apiUrl, 'notify_tracking_shed_total');
  const total = Math.round(rate * opts.longSeconds);
  const interval = 1000 / rate;
  const samples: Promise<Sample>[] = [];
  let inFlight = 0;
  const inFlightSamples: number[] = [];
  const sampler = setInterval(() => inFlightSamples.push(inFlight), 10);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const t0 = performance.now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor((performance.now() - t0) / interval) + 1);
    for (; sent < due; sent += 1) {
      if (inFlight >= 3000) throw new Error('more than 3000 requests in flight: the gateway is not bounding its calls');
      inFlight += 1;
      samples.push(track(`${apiUrl}/${opts.longPolicy}-${cancel ? 'on' : 'off'}/SHP-L${sent}`).finally(() => { inFlight -= 1; }));
    }
    if (performance.now() - t0 > opts.longSeconds * 1000 + 30_000) throw new Error('the pacer fell 30 s behind');
    await new Promise((r) => setTimeout(r, 1));
  }
  const done = await Promise.all(samples);
  const elapsedS = (performance.now() - t0) / 1000;
  loop.disable();
  clearInterval(sampler);
  const stats = await settle(storesUrl);
  const shedAfter = await apiMetric(apiUrl, 'notify_tracking_shed_total');
  return {
    rate, cancel, sent: total, lambda: total / elapsedS, ms: done.map((x) => x.ms).sort((x, y) => x - y), samples: done,
    inFlightMean: mean(inFlightSamples), abandonedWorkMs: stats.abandonedWorkMs, elapsedS,
    clientLoopP99: Math.max(0, loop.percentile(99) / 1e6 - 5),
    apiLate: (await apiMetric(apiUrl, 'notify_tracking_late_answers_total')) - lateBefore,
    apiShed: shedAfter - shedBefore,
  };
}

const budgetMs = TRACKING_REFERENCE.budgetMs;
const pastBudget = (r: OpenLoopResult): number[] => r.ms.filter((m) => m > budgetMs);
const count = (r: OpenLoopResult, status: number): number => r.samples.filter((x) => x.status === status).length;

function littleLine(r: OpenLoopResult): string {
  const w = mean(r.ms);
  const abandonedSlots = r.abandonedWorkMs / 1000 / r.elapsedS; // mean concurrent abandoned reads
  return `${opts.longPolicy.padEnd(11)}${(r.cancel ? 'on' : 'off').padEnd(7)}${pad(r.sent, 6)}${pad(r.lambda.toFixed(1), 9)}${pad(count(r, 200), 9)}${pad(quantile(r.ms, 0.5).toFixed(1), 8)}${pad(quantile(r.ms, 0.99).toFixed(1), 8)}${pad((r.ms[r.ms.length - 1] ?? 0).toFixed(1), 8)}${pad((r.lambda * w / 1000).toFixed(1), 10)}${pad(r.inFlightMean.toFixed(1), 10)}${pad(Math.round(r.abandonedWorkMs), 11)}${pad(abandonedSlots.toFixed(1), 11)}${pad((r.lambda * w / 1000 + abandonedSlots).toFixed(1), 8)}`;
}

const BUDGET_HEADER = `${pad('rate/s', 8)}${pad('lambda/s', 9)}${pad('sent', 6)}${pad('200', 6)}${pad('504', 6)}${pad('guard', 6)}${pad('503', 6)}${pad('other', 6)}${pad('p50', 7)}${pad('p99', 7)}${pad('p99.9', 7)}${pad('worst', 7)}${pad('past 200', 9)}${pad('share %', 8)}${pad('overrun', 8)}${pad('api late', 9)}${pad('client lag', 11)}`;

function budgetLine(r: OpenLoopResult): string {
  const late = pastBudget(r);
  const worst = r.ms[r.ms.length - 1] ?? 0;
  const other = r.samples.filter((x) => ![200, 503, 504].includes(x.status)).length;
  // "*": the client could not send at the rate asked (a saturated machine), so the row measures less load than its label.
  const short = r.lambda < 0.95 * r.rate ? '*' : '';
  return `${pad(r.rate.toFixed(2), 8)}${pad(`${short}${r.lambda.toFixed(1)}`, 9)}${pad(r.sent, 6)}${pad(count(r, 200), 6)}${pad(count(r, 504), 6)}${pad(r.samples.filter((x) => x.byGuard).length, 6)}${pad(count(r, 503), 6)}${pad(other, 6)}${pad(quantile(r.ms, 0.5).toFixed(1), 7)}${pad(quantile(r.ms, 0.99).toFixed(1), 7)}${pad(quantile(r.ms, 0.999).toFixed(1), 7)}${pad(worst.toFixed(1), 7)}${pad(late.length, 9)}${pad((100 * late.length / Math.max(1, r.sent)).toFixed(2), 8)}${pad(late.length === 0 ? '-' : `+${(worst - budgetMs).toFixed(1)}`, 8)}${pad(r.apiLate, 9)}${pad(r.clientLoopP99.toFixed(1), 11)}`;
}

/**
 * Finds the rate where the first answer past the budget appears, in bounded steps: up by
 * x1.25 from --rate while clean (or down by x0.8 while not), then two bisections between
 * the last clean rate and the first with an overrun. Returns the highest clean rate seen.
 */
async function searchFirstOverrun(apiUrl: string, storesUrl: string, first: OpenLoopResult): Promise<void> {
  log(`-- answers past the ${budgetMs} ms budget per rate (AY10, ${opts.longPolicy}, cancellation on, ${opts.longSeconds} s each; client clock; "guard" = 504s written by the deadline guard; "api late" = the api's own count of answers written after their budget; "client lag" = the client process's loop delay p99, ms) --`);
  log(BUDGET_HEADER);
  const runs: OpenLoopResult[] = [];
  const run = async (rate: number): Promise<boolean> => {
    const r = await openLoop(apiUrl, storesUrl, true, Math.round(rate * 100) / 100);
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
  if (firstClean) clean = rate; else dirty = rate;
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
    if (ok) clean = Math.max(clean ?? 0, rate); else dirty = Math.min(dirty ?? Number.POSITIVE_INFINITY, rate);
  }
  const shedFree = runs.filter((r) => pastBudget(r).length === 0 && count(r, 503) === 0).map((r) => r.rate);
  if (runs.some((r) => r.lambda < 0.95 * r.rate)) log('* lambda below 95 % of the rate asked: the client could not keep the schedule (machine saturated); that row understates the load');
  log(`first overrun: ${dirty === undefined ? `none up to ${Math.max(...runs.map((r) => r.rate)).toFixed(2)}/s` : `at ${dirty.toFixed(2)}/s`}; highest rate with no answer past the budget: ${clean === undefined ? 'none tested' : `${clean.toFixed(2)}/s`}; highest with none past the budget and none shed: ${shedFree.length === 0 ? 'none tested' : `${Math.max(...shedFree).toFixed(2)}/s`} (${steps} runs)`);
}

async function overhead(): Promise<void> {
  const server = createServer((_req, res) => { res.setHeader('content-type', 'application/json'); res.end('{}'); });
  const url = `${await listen(server)}/x`;
  const agent = new Agent({ connections: 1, keepAliveTimeout: 10_000 });
  const bare = async (): Promise<void> => { await (await request(url, { dispatcher: agent })).body.json(); };
  const budgeted = async (): Promise<void> => {
    const req = new Deadline({ budgetMs: 1000, step: 'bench' });
    await runStep(req, 'x', 500, (ctx) => budgetedGetJson(url, { deadline: ctx.deadline, dispatcher: agent }));
    req.dispose();
  };
  for (let i = 0; i < 300; i += 1) { await bare(); await budgeted(); } // warm-up
  // Blocks of 100 calls, alternating which kind goes first; the median of the per-block
  // differences, so a neighbour's burst that lands in a few blocks does not move the figure.
  // Wall clock and this process's CPU time (process.cpuUsage, client and server both live
  // here): on a shared machine the wall clock also counts the time other processes held
  // the cores, the CPU time does not.
  const perCall: Record<'bare' | 'budgeted', number[]> = { bare: [], budgeted: [] };
  const cpuPerCall: Record<'bare' | 'budgeted', number[]> = { bare: [], budgeted: [] };
  const diffs: number[] = [];
  const cpuDiffs: number[] = [];
  for (let block = 0; block < opts.overheadCalls / 100; block += 1) {
    const order = block % 2 === 0 ? (['bare', 'budgeted'] as const) : (['budgeted', 'bare'] as const);
    const us: Record<string, number> = {};
    const cpu: Record<string, number> = {};
    for (const name of order) {
      const fn = name === 'bare' ? bare : budgeted;
      const t = performance.now();
      const c = process.cpuUsage();
      for (let i = 0; i < 100; i += 1) await fn();
      const used = process.cpuUsage(c);
      us[name] = ((performance.now() - t) * 1000) / 100;
      cpu[name] = (used.user + used.system) / 100;
      perCall[name].push(us[name] as number);
      cpuPerCall[name].push(cpu[name] as number);
    }
    diffs.push((us.budgeted as number) - (us.bare as number));
    cpuDiffs.push((cpu.budgeted as number) - (cpu.bare as number));
  }
  const median = (xs: readonly number[]): number => quantile([...xs].sort((x, y) => x - y), 0.5);
  log(`bare undici GET (keep-alive, 1 socket, same run): median ${median(perCall.bare).toFixed(1)} µs/call; through runStep + budgetedGetJson: median ${median(perCall.budgeted).toFixed(1)} µs/call; wrapper overhead: median of per-block differences ${median(diffs).toFixed(1)} µs/call (means: ${(mean(perCall.budgeted) - mean(perCall.bare)).toFixed(1)} µs) over ${opts.overheadCalls} calls each, interleaved in blocks of 100`);
  log(`  same calls in CPU time of this process (client + server): bare median ${median(cpuPerCall.bare).toFixed(1)} µs/call, budgeted ${median(cpuPerCall.budgeted).toFixed(1)} µs/call; wrapper overhead ${median(cpuDiffs).toFixed(1)} µs CPU/call (wall-clock overhead / bare: ${(median(diffs) / median(perCall.bare)).toFixed(2)})`);
  const parent = new Deadline({ budgetMs: Number.POSITIVE_INFINITY, step: 'bench' });
  const n = 200_000;
  const t = performance.now();
  for (let i = 0; i < n; i += 1) parent.child('x', 50).dispose();
  log(`in-process: derive + dispose a child deadline (AbortController, parent listener, timer): ${(((performance.now() - t) * 1e6) / n).toFixed(0)} ns/op over ${n.toLocaleString('en')}`);
  await agent.close();
  server.close();
}

async function main(): Promise<void> {
  const cpus = os.cpus();
  log(`bench:tracking — MEASURED on this machine (not the seed's logical clock): ${cpus[0]?.model ?? 'unknown cpu'} x ${cpus.length}, ${os.platform()} ${os.release()}, node ${process.version}, ${new Date().toISOString()}`);
  log(`load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')} (1/5/15 min; other processes on these cores move every timing below)`);
  log(`budget ${TRACKING_REFERENCE.budgetMs} ms, gateway share ${TRACKING_REFERENCE.gatewayShareMs} ms, stores ${opts.inProcess ? 'in this process' : 'in a child process'}, api store connections ${opts.connections}, timings are client-side wall clock (the seed adds a fixed 20 ms gateway share; here the gateway's time is real)`);
  const env = apiEnv();
  const shown = loadTrackingConfig(env);
  log(`api: ${opts.inProcess ? 'in this process' : 'one child process'}; answer reserve ${shown.answerReserveMs} ms (+ the loop's measured delay, capped at the ${shown.gatewayShareMs} ms gateway share); shed on loop delay p90 > ${shown.shedLoopDelayMs || 'never'} ms or ${shown.maxInFlight || 'unbounded'} in flight`);
  const stores = await startStores();
  const api = await startApi(stores.url);
  const apiUrl = api.url;
  try {
    log();
    if (opts.requests > 0) await scenarios(apiUrl, stores.url);
    if (opts.longSeconds > 0) {
      log();
      log(`-- AY10 open loop at ${opts.rate}/s for ${opts.longSeconds} s (K01 read rate); L = lambda x W vs sampled in-flight; abandoned slots = abandoned work / time --`);
      log(`${'policy'.padEnd(11)}${'cancel'.padEnd(7)}${pad('sent', 6)}${pad('lambda/s', 9)}${pad('answered', 9)}${pad('p50', 8)}${pad('p99', 8)}${pad('worst', 8)}${pad('L=lambdaW', 10)}${pad('sampled L', 10)}${pad('abandon ms', 11)}${pad('aband.slots', 11)}${pad('total', 8)}`);
      const off = await openLoop(apiUrl, stores.url, false, opts.rate);
      log(littleLine(off));
      const on = await openLoop(apiUrl, stores.url, true, opts.rate);
      log(littleLine(on));
      log(`seed (logical, weighted, AY10): caller slots 40.2; abandoned slots without cancel 96.5 (total 136.7); with cancel 40.2 total`);
      log(`cancellation off at ${opts.rate}/s: ${pastBudget(off).length} of ${off.sent} answers past the budget (worst ${(off.ms[off.ms.length - 1] ?? 0).toFixed(1)} ms)`);
      log();
      await searchFirstOverrun(apiUrl, stores.url, on);
    }
    log();
    await overhead();
    const headerBytes = Buffer.byteLength('x-request-timeout-ms: 173\r\n');
    log(`load average at end ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}`);
    log(`deadline header on the wire: ${headerBytes} B per store call x 3 store calls = ${headerBytes * 3} B/request (seed: 8 B x 5 sub-calls = 40 B; its 2 branch hops are in-process calls here)`);
  } finally {
    await api.stop();
    await stores.stop();
    await client.close();
  }
}

if (process.argv.includes('--serve-stores')) void serveStores();
else if (process.argv.includes('--serve-api')) void serveApiChild();
else main().catch((error: unknown) => { console.error(error); process.exitCode = 1; });
