/**
 * bench:tracking — the seed's tracking-budget scenario over real HTTP on 127.0.0.1.
 *
 *   npm run bench:tracking -- [--requests 48] [--long-seconds 10] [--rate 416.67]
 *     [--long-policy weighted] [--connections 256] [--overhead-calls 3000] [--in-process]
 *
 * The stores run in a child process (unless --in-process) so the gateway and the stores
 * do not share one event loop. Everything is bounded in count and time; output is a
 * measurement on this machine, printed beside the seed's logical-clock table.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import express from 'express';
import pino from 'pino';
import { Registry } from 'prom-client';
import { Agent, request } from 'undici';
import {
  budgetedGetJson, Deadline, runStep, SEED_PUBLISHED_TABLE, slotsHeld, SPLIT_POLICY_NAMES, TRACKING_REFERENCE, type SplitPolicyName,
} from '@notify/budget-chain';
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
};

async function listen(server: Server): Promise<string> {
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

async function startStores(): Promise<{ url: string; stop(): Promise<void> }> {
  if (opts.inProcess) {
    const stores = createTrackingStoresApp({ config: loadTrackingStoresConfig({}), registry: new Registry(), logger: silent });
    const server = createServer(stores.app);
    const url = await listen(server);
    return { url, stop: async () => { stores.close(); server.closeAllConnections(); server.close(); } };
  }
  const child = fork(__filename, ['--serve-stores'], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [message] = (await Promise.race([once(child, 'message'), new Promise((_, reject) => setTimeout(() => reject(new Error('stores child did not start in 20 s')), 20_000))])) as [{ url: string }];
  return { url: message.url, stop: async () => { child.disconnect(); await once(child, 'exit'); } };
}

const client = new Agent({ connections: 512, keepAliveTimeout: 10_000 });

async function getJson<T>(url: string, method: 'GET' | 'POST' = 'GET', body?: unknown): Promise<T> {
  const res = await request(url, { method, dispatcher: client, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await res.body.json()) as T;
}

interface Sample { status: number; ms: number; steps: { step: string; outcome: string }[] }

async function track(url: string): Promise<Sample> {
  const started = performance.now();
  const res = await request(url, { dispatcher: client });
  const body = (await res.body.json()) as { budget?: { steps?: Sample['steps'] } };
  return { status: res.statusCode, ms: performance.now() - started, steps: body.budget?.steps ?? [] };
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

interface Row { answered: number; dropped: number; failTariff: number; failMeasurement: number; medianMs: number; worstMs: number; meanMs: number; slots: number; abandonedMs: number }

function summarise(samples: readonly Sample[], abandonedMs: number): Row {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const fails = (step: string): number => samples.filter((s) => s.steps.some((x) => x.step === step && x.outcome !== 'ok')).length;
  const answered = samples.filter((s) => s.status === 200).length;
  return {
    answered, dropped: samples.length - answered, failTariff: fails('tariff'), failMeasurement: fails('measurement'),
    medianMs: quantile(ms, 0.5), worstMs: ms[ms.length - 1] ?? 0, meanMs: mean(ms), slots: slotsHeld(mean(ms)), abandonedMs,
  };
}

const HEADER = `${'regime'.padEnd(12)}${'policy'.padEnd(11)}${'cancel'.padEnd(7)}${'source'.padEnd(9)}${pad('answered', 9)}${pad('dropped', 8)}${pad('fail:tariff', 12)}${pad('fail:meas', 10)}${pad('median', 8)}${pad('worst', 7)}${pad('mean', 7)}${pad('slots', 7)}${pad('abandoned ms', 13)}`;

function line(regime: string, policy: string, cancel: string, source: string, r: Row | undefined): string {
  if (r === undefined) return `${regime.padEnd(12)}${policy.padEnd(11)}${cancel.padEnd(7)}${source.padEnd(9)}${pad('(no seed row for this policy)', 40)}`;
  const f = (n: number): string => n.toFixed(1);
  return `${regime.padEnd(12)}${policy.padEnd(11)}${cancel.padEnd(7)}${source.padEnd(9)}${pad(r.answered, 9)}${pad(r.dropped, 8)}${pad(r.failTariff, 12)}${pad(r.failMeasurement, 10)}${pad(f(r.medianMs), 8)}${pad(f(r.worstMs), 7)}${pad(f(r.meanMs), 7)}${pad(f(r.slots), 7)}${pad(Math.round(r.abandonedMs), 13)}`;
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

async function longRun(apiUrl: string, storesUrl: string, cancel: boolean): Promise<void> {
  await prepare(storesUrl, true, cancel);
  const total = Math.round(opts.rate * opts.longSeconds);
  const interval = 1000 / opts.rate;
  const samples: Promise<Sample>[] = [];
  let inFlight = 0;
  const inFlightSamples: number[] = [];
  const sampler = setInterval(() => inFlightSamples.push(inFlight), 10);
  const t0 = performance.now();
  for (let i = 0; i < total; i += 1) {
    const due = t0 + i * interval;
    while (performance.now() < due) await new Promise((r) => setImmediate(r));
    if (inFlight >= 2000) throw new Error('more than 2000 requests in flight: the gateway is not bounding its calls');
    inFlight += 1;
    samples.push(track(`${apiUrl}/${opts.longPolicy}-${cancel ? 'on' : 'off'}/SHP-L${i}`).finally(() => { inFlight -= 1; }));
  }
  const done = await Promise.all(samples);
  const elapsedS = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const stats = await settle(storesUrl);
  const ms = done.map((s) => s.ms).sort((a, b) => a - b);
  const lambda = total / elapsedS;
  const w = mean(ms);
  const abandonedSlots = stats.abandonedWorkMs / 1000 / elapsedS; // mean concurrent abandoned reads
  log(`${opts.longPolicy.padEnd(11)}${(cancel ? 'on' : 'off').padEnd(7)}${pad(total, 6)}${pad(lambda.toFixed(1), 9)}${pad(done.filter((s) => s.status === 200).length, 9)}${pad(quantile(ms, 0.5).toFixed(1), 8)}${pad(quantile(ms, 0.99).toFixed(1), 8)}${pad((ms[ms.length - 1] ?? 0).toFixed(1), 8)}${pad((lambda * w / 1000).toFixed(1), 10)}${pad(mean(inFlightSamples).toFixed(1), 10)}${pad(Math.round(stats.abandonedWorkMs), 11)}${pad(abandonedSlots.toFixed(1), 11)}${pad((lambda * w / 1000 + abandonedSlots).toFixed(1), 8)}`);
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
  const times = { bare: 0, budgeted: 0 };
  for (let block = 0; block < opts.overheadCalls / 100; block += 1) {
    for (const [name, fn] of [['bare', bare], ['budgeted', budgeted]] as const) {
      const t = performance.now();
      for (let i = 0; i < 100; i += 1) await fn();
      times[name] += performance.now() - t;
    }
  }
  const perCall = (ms: number): number => (ms * 1000) / opts.overheadCalls;
  log(`bare undici GET (keep-alive, 1 socket): ${perCall(times.bare).toFixed(1)} µs/call; through runStep + budgetedGetJson: ${perCall(times.budgeted).toFixed(1)} µs/call; wrapper overhead ${(perCall(times.budgeted) - perCall(times.bare)).toFixed(1)} µs/call (${opts.overheadCalls} calls each, interleaved in blocks of 100)`);
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
  const stores = await startStores();
  const registry = new Registry();
  const routers: TrackingRouter[] = [];
  const app = express();
  for (const policy of SPLIT_POLICY_NAMES) {
    for (const cancel of [true, false]) {
      const config = loadTrackingConfig({ TRACKING_STORES_BASE_URL: stores.url, TRACKING_SPLIT_POLICY: policy, TRACKING_CANCEL: String(cancel), TRACKING_STORE_CONNECTIONS: String(opts.connections) });
      const router = createTrackingRouter({ config, registry, logger: silent });
      routers.push(router);
      app.use(`/${policy}-${cancel ? 'on' : 'off'}`, router);
    }
  }
  const apiServer = createServer(app);
  const apiUrl = await listen(apiServer);
  try {
    log();
    await scenarios(apiUrl, stores.url);
    if (opts.longSeconds > 0) {
      log();
      log(`-- AY10 open loop at ${opts.rate}/s for ${opts.longSeconds} s (K01 read rate); L = lambda x W vs sampled in-flight; abandoned slots = abandoned work / time --`);
      log(`${'policy'.padEnd(11)}${'cancel'.padEnd(7)}${pad('sent', 6)}${pad('lambda/s', 9)}${pad('answered', 9)}${pad('p50', 8)}${pad('p99', 8)}${pad('worst', 8)}${pad('L=lambdaW', 10)}${pad('sampled L', 10)}${pad('abandon ms', 11)}${pad('aband.slots', 11)}${pad('total', 8)}`);
      for (const cancel of [false, true]) await longRun(apiUrl, stores.url, cancel);
      log(`seed (logical, weighted, AY10): caller slots 40.2; abandoned slots without cancel 96.5 (total 136.7); with cancel 40.2 total`);
    }
    log();
    await overhead();
    const headerBytes = Buffer.byteLength('x-request-timeout-ms: 173\r\n');
    log(`load average at end ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}`);
    log(`deadline header on the wire: ${headerBytes} B per store call x 3 store calls = ${headerBytes * 3} B/request (seed: 8 B x 5 sub-calls = 40 B; its 2 branch hops are in-process calls here)`);
  } finally {
    await Promise.all(routers.map((r) => r.close()));
    apiServer.closeAllConnections();
    apiServer.close();
    await stores.stop();
    await client.close();
  }
}

if (process.argv.includes('--serve-stores')) void serveStores();
else main().catch((error: unknown) => { console.error(error); process.exitCode = 1; });
