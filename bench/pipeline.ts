/**
 * `npm run bench:pipeline`: the whole path (HTTP intake → Redis → channel lanes → provider HTTP
 * calls → status) as separate processes on this machine, under open-loop load at several
 * rates. Prints intake rate, delivery rate, urgent/reminder latency, calls per notification
 * and duplicates per rate. A measurement, not a model: it states the machine and time scale.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadScenarioEnv } from '../apps/chaos/src/config';
import { DEFAULT_ENTRIES, SCENARIO_API_KEY, startPlatform } from '../apps/chaos/src/scenario/platform-launcher';
import { ProcessGroup } from '../apps/chaos/src/scenario/process-group';
import { runLoad } from '../apps/loadgen/src/run-load';
import { formatReport, type RunReport } from '../apps/loadgen/src/run-report';

const ROOT = join(__dirname, '..');
const BENCH_API_KEY = SCENARIO_API_KEY;

const { values } = parseArgs({
  options: {
    rates: { type: 'string', default: '500,1000,1736' },
    seconds: { type: 'string', default: '10' },
    workers: { type: 'string', default: '2' },
    'transient-delay-ms': { type: 'string', default: '300' },
    'provider-latency-ms': { type: 'string', default: '20' },
    mode: { type: 'string', default: 'batch' },
    'warmup-seconds': { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
  },
  strict: true,
});

async function main(): Promise<void> {
  const rates = (values.rates as string).split(',').map(Number);
  if (rates.some((r) => !Number.isFinite(r) || r <= 0 || r > 10_000)) throw new Error('--rates must be positive numbers up to 10000');
  const seconds = Number(values.seconds);
  if (!(seconds > 0 && seconds <= 120)) throw new Error('--seconds must be in (0, 120]');
  const mode = values.mode === 'single' ? 'single' : 'batch';
  const delay = values['transient-delay-ms'] as string;
  // The chaos scenario's launcher: every process on 127.0.0.1, free ports, a private redis-server.
  const dir = mkdtempSync(join(tmpdir(), 'notify-bench-'));
  const group = new ProcessGroup(dir);
  const abort = new AbortController();
  // Ctrl-C: stop every process this bench started, then exit.
  const interrupt = () => {
    abort.abort();
    void group.stop().finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(130);
    });
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  const started = await startPlatform({
    root: ROOT, group, env: loadScenarioEnv(process.env), dataDir: dir, workers: Number(values.workers),
    appEnv: { CASCADE_TRANSIENT_DELAY_MS: delay, CASCADE_RECONCILE_DELAY_MS: delay, CASCADE_UNAVAILABLE_RETRY_MS: delay },
    simEnv: { SIM_LATENCY_MS: values['provider-latency-ms'] as string },
    entries: DEFAULT_ENTRIES, signal: abort.signal,
  }).catch(async (error: unknown) => {
    await group.stop();
    throw error;
  });
  const platform = {
    apiUrl: started.apiUrl,
    simControlUrl: started.controlUrl,
    workerMetricsUrls: started.workerUrls.map((url) => `${url}/metrics`),
    stop: async () => {
      await started.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const results: { rate: number; report: RunReport }[] = [];
  try {
    // Warm-up (not reported): module compilation, JIT, Redis script loading, connection pools.
    const warmup = Number(values['warmup-seconds']);
    if (warmup > 0) {
      await runLoad({
        apiUrl: platform.apiUrl, apiKey: BENCH_API_KEY, rate: Math.min(...rates) / 2, seconds: warmup, urgentShare: 0.5, mode, tickMs: 50,
        workerMetricsUrls: platform.workerMetricsUrls, simControlUrl: platform.simControlUrl, drainSeconds: 30, seed: 1,
      });
    }
    for (const rate of rates) {
      const report = await runLoad({
        apiUrl: platform.apiUrl, apiKey: BENCH_API_KEY, rate, seconds, urgentShare: 0.5, mode, tickMs: 50,
        workerMetricsUrls: platform.workerMetricsUrls, simControlUrl: platform.simControlUrl, drainSeconds: 60, seed: rate,
      });
      results.push({ rate, report });
      if (!values.json) process.stdout.write(`\n== offered ${rate}/s for ${seconds} s (${mode} intake) ==\n${formatReport(report)}\n`);
    }
  } finally {
    await platform.stop();
  }
  const cpu = cpus();
  const header = `measured on ${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}, Node ${process.version}; ` +
    `api + ${values.workers} worker processes + simulators + redis-server on this machine; provider latency ${values['provider-latency-ms']} ms; ` +
    `cascade delay scaled from 30 s to ${delay} ms`;
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ header, results }, null, 2)}\n`);
    return;
  }
  process.stdout.write(`\n${header}\n`);
  process.stdout.write('offered/s  accepted/s  delivery  calls/notif  dup  urgent mean s  urgent p95<= s  reminder mean s  p99 intake ms\n');
  for (const { rate, report: r } of results) {
    process.stdout.write(`${String(rate).padStart(9)}  ${r.intakePerSecond.toFixed(0).padStart(10)}  ${r.deliveryRate.toFixed(4).padStart(8)}  ` +
      `${(r.callsPerNotification ?? 0).toFixed(3).padStart(11)}  ${String(r.duplicateDeliveries ?? 'n/a').padStart(3)}  ` +
      `${(r.latency.urgent.meanSeconds ?? 0).toFixed(3).padStart(13)}  ${String(r.latency.urgent.p95UpperSeconds ?? 'n/a').padStart(14)}  ` +
      `${(r.latency.reminder.meanSeconds ?? 0).toFixed(3).padStart(15)}  ${r.requestP99Ms.toFixed(1).padStart(13)}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:pipeline failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
