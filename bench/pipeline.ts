/**
 * `npm run bench:pipeline`: the whole path (HTTP intake → Redis → channel lanes → provider HTTP
 * calls → status) as separate processes on this machine, each offered rate HELD for `--seconds`
 * (open loop), and two bare references measured in the same run:
 *   - a bare Express + SET NX + BullMQ add intake (bench/references/bare-intake.ts) vs the
 *     platform's api with Redis alone, single POSTs at `--single-rates`;
 *   - a bare two-hop BullMQ pipeline (bench/references/two-hop.ts) drained at its ceiling.
 * A rate is "sustained" only if intake kept up and deliveries kept up over the steady window
 * (backlog at the end <= 2 s of traffic and not growing). `--api-instances N` runs the whole
 * platform with N api processes, the generator going round-robin over them. Options: see USAGE below.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { formatResults, type BenchReport } from './pipeline/format';
import { ProcessGroup, type ManagedProcess, startPrivateRedis, startProcessPlatform } from '@notify/platform-kit';
import { holdRate, type BenchTarget, type RateResult } from './pipeline/hold-rate';
import { holdIntake, measureTwoHop, prefillTwoHop } from './pipeline/references';
import { setUpConsent, withConsent } from './pipeline/consent-traffic';
import { startReference } from './pipeline/services';

const BENCH_TENANT = 'bench';
const BENCH_API_KEY = 'bench-key-000000000000000000001';
const USAGE = `usage: npm run bench:pipeline -- [--rates 1000,1736,2200] [--seconds 60] [--mode batch|single]
  [--single-rates 1736,3000,4000] [--references all|none|intake|two-hop] [--workers 2] [--api-instances 1]
  [--provider-latency-ms 20] [--transient-delay-ms 300] [--drain-seconds 60] [--settle-seconds 5]
  [--urgent-sample 2000] [--app-env KEY=VALUE,...] [--consent] [--cpu-prof DIR] [--json]`;

const { values } = parseArgs({
  options: {
    rates: { type: 'string', default: '1000,1736,2200' },
    seconds: { type: 'string', default: '60' },
    'settle-seconds': { type: 'string' },
    workers: { type: 'string', default: '2' },
    'api-instances': { type: 'string', default: '1' },
    'transient-delay-ms': { type: 'string', default: '300' },
    'provider-latency-ms': { type: 'string', default: '20' },
    mode: { type: 'string', default: 'batch' },
    'single-rates': { type: 'string', default: '1736,3000,4000' },
    references: { type: 'string', default: 'all' },
    'drain-seconds': { type: 'string', default: '60' },
    'urgent-sample': { type: 'string', default: '2000' },
    'app-env': { type: 'string', default: '' },
    'cpu-prof': { type: 'string' },
    consent: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});

function numbers(text: string, name: string): number[] {
  const list = text.split(',').filter(Boolean).map(Number);
  if (list.some((r) => !Number.isFinite(r) || r <= 0 || r > 20_000)) throw new Error(`--${name} must be positive numbers up to 20000`);
  return list;
}

function appEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of text.split(',').filter(Boolean)) {
    const [key, ...rest] = pair.split('=');
    if (!key || !/^[A-Z][A-Z0-9_]*$/.test(key) || rest.length === 0) throw new Error(`--app-env: '${pair}' is not KEY=VALUE`);
    env[key] = rest.join('=');
  }
  return env;
}

const loadText = (l: number[]) => l.map((v) => v.toFixed(2)).join('/');

async function main(): Promise<void> {
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const rates = numbers(values.rates, 'rates');
  const singleRates = numbers(values['single-rates'], 'single-rates');
  const seconds = Number(values.seconds);
  if (!(seconds >= 5 && seconds <= 600)) throw new Error('--seconds must be in [5, 600]');
  const settle = values['settle-seconds'] === undefined ? Math.min(5, seconds / 4) : Number(values['settle-seconds']);
  if (!(settle >= 0 && settle < seconds)) throw new Error('--settle-seconds must be in [0, seconds)');
  const mode = values.mode === 'single' ? 'single' : 'batch';
  const refs = values.references;
  if (!['all', 'none', 'intake', 'two-hop'].includes(refs)) throw new Error('--references must be all, none, intake or two-hop');
  const workers = Number(values.workers);
  const apiInstances = Number(values['api-instances']);
  if (!(Number.isInteger(apiInstances) && apiInstances >= 1 && apiInstances <= 4)) throw new Error('--api-instances must be an integer in [1, 4]');
  const latency = values['provider-latency-ms'];
  const delay = values['transient-delay-ms'];
  const extraEnv = appEnv(values['app-env']);
  // Node 20 refuses --cpu-prof in NODE_OPTIONS: a preloaded inspector hook writes the profiles
  // (api, workers and simulators alike).
  const profileEnv: Record<string, string> = values['cpu-prof']
    ? { NODE_OPTIONS: `--import ${join(__dirname, 'pipeline', 'cpu-profile-hook.mjs')}`, BENCH_CPU_PROF_DIR: values['cpu-prof'] }
    : {};
  const drainSeconds = Number(values['drain-seconds']);
  const urgentSample = Number(values['urgent-sample']);

  const loadAtStart = loadavg();
  const dir = mkdtempSync(join(tmpdir(), 'notify-bench-'));
  // One process group per phase (a stopped group starts nothing more); Ctrl-C stops them all.
  const groups: ProcessGroup[] = [];
  const phase = () => {
    const g = new ProcessGroup({ logDir: dir });
    groups.push(g);
    return g;
  };
  const abort = new AbortController();
  const interrupt = () => {
    abort.abort();
    void Promise.all(groups.map((g) => g.stopAll())).finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(130);
    });
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  const log = (line: string) => {
    if (!values.json) process.stderr.write(`${line}\n`);
  };
  const report: BenchReport = {
    header: '',
    rates: [],
    intake: [],
    twoHop: undefined,
    label: Object.entries(extraEnv)
      .map(([k, v]) => `${k}=${v}`)
      .join(' '),
  };
  const platformEnv = {
    CASCADE_TRANSIENT_DELAY_MS: delay,
    CASCADE_RECONCILE_DELAY_MS: delay,
    CASCADE_UNAVAILABLE_RETRY_MS: delay,
    ...extraEnv,
    ...profileEnv,
  };
  const inherited = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  const privateRedis = (group: ProcessGroup, name: string) =>
    startPrivateRedis({ group, env: inherited, dataDir: join(dir, name), persistence: 'none', signal: abort.signal });
  const platformOf = (count: number, apis = 1) =>
    startProcessPlatform({
      group: phase(),
      inherited,
      workers: count,
      apiInstances: apis,
      apiKeys: `${BENCH_API_KEY}:${BENCH_TENANT}`,
      appEnv: platformEnv,
      simEnv: { SIM_LATENCY_MS: latency, ...profileEnv },
      dataDir: join(dir, `platform-${count}`),
      signal: abort.signal,
    });
  const withRedis = async <T>(url: string, run: (redis: Redis) => Promise<T>): Promise<T> => {
    const redis = new Redis(url, { maxRetriesPerRequest: null });
    try {
      return await run(redis);
    } finally {
      redis.disconnect();
    }
  };

  try {
    if (refs === 'all' || refs === 'two-hop') {
      log('reference: bare two-hop BullMQ pipeline (prefilled, drained at its ceiling)');
      const group = phase();
      const redis = await privateRedis(group, 'two-hop');
      const jobs = Math.round(4_000 * (seconds + settle + 2));
      await withRedis(redis.url, (r) => prefillTwoHop(r, jobs));
      const hops: { url: string; child: ManagedProcess }[] = [];
      for (let i = 0; i < workers; i += 1) {
        hops.push(
          await startReference(group, `two-hop-${i + 1}`, 'two-hop.ts', { REDIS_URL: redis.url, CONCURRENCY: '100', LATENCY_MS: latency }, abort.signal),
        );
      }
      report.twoHop = await withRedis(redis.url, (r) =>
        measureTwoHop(
          r,
          hops.map((h) => h.url),
          jobs,
          seconds,
          settle,
        ),
      );
      await group.stopAll();
    }
    if (refs === 'all' || refs === 'intake') {
      log('reference: bare Express + SET NX + BullMQ add, single POST');
      const group = phase();
      const redis = await privateRedis(group, 'bare');
      const bare = await startReference(group, 'bare-intake', 'bare-intake.ts', { REDIS_URL: redis.url }, abort.signal);
      await withRedis(redis.url, async (r) => {
        await holdIntake('bare', { url: bare.url, apiKey: 'none', redis: r }, (singleRates[0] as number) / 2, 3, 1);
        for (const rate of singleRates)
          report.intake.push(await holdIntake('bare prototype', { url: bare.url, apiKey: 'none', redis: r }, rate, seconds, rate));
      });
      await group.stopAll();

      log('platform: api + Redis alone (no workers), single POST');
      const alone = await platformOf(0);
      await withRedis(alone.redisUrl, async (r) => {
        const target = { url: alone.apiUrl, apiKey: BENCH_API_KEY, redis: r };
        await holdIntake('api', target, (singleRates[0] as number) / 2, 3, 1);
        for (const rate of singleRates) report.intake.push(await holdIntake('platform api + Redis', target, rate, seconds, rate));
      });
      await alone.stop();
    }

    log(`platform: ${apiInstances > 1 ? `${apiInstances} api instances` : 'api'} + ${workers} workers + simulators + Redis, ${mode} intake`);
    const platform = await platformOf(workers, apiInstances);
    try {
      await withRedis(platform.redisUrl, async (redis) => {
        const target: BenchTarget = {
          apiUrl: platform.apiUrl,
          apiUrls: platform.apiUrls,
          apiKey: BENCH_API_KEY,
          tenant: BENCH_TENANT,
          redis,
          metricsUrls: [...platform.apiMetricsUrls, ...platform.workerUrls.map((u) => `${u}/metrics`)],
        };
        if (values.consent) await setUpConsent(platform.apiUrl, BENCH_API_KEY);
        const common = { mode, urgentShare: 0.5, drainSeconds, urgentSample, ...(values.consent ? { shape: withConsent } : {}) } as const;
        // Warm-up (not reported): JIT, script loading, connection pools.
        await holdRate(target, { ...common, rate: Math.min(...rates) / 2, seconds: 5, settleSeconds: 1, seed: 1, urgentSample: 0, delivering: true });
        for (const rate of rates) {
          log(`  holding ${rate}/s for ${seconds} s`);
          const result: RateResult = await holdRate(target, { ...common, rate, seconds, settleSeconds: settle, seed: rate, delivering: true });
          report.rates.push(result);
          if (values.json) process.stdout.write(`${JSON.stringify({ kind: 'rate', label: report.label, ...result })}\n`);
        }
      });
    } finally {
      await platform.stop();
    }
  } finally {
    await Promise.all(groups.map((g) => g.stopAll()));
    rmSync(dir, { recursive: true, force: true });
  }
  const cpu = cpus();
  report.header =
    `measured on ${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}, Node ${process.version}; ` +
    `${apiInstances > 1 ? `${apiInstances} api instances (round-robin)` : 'api'} + ${workers} worker processes + simulators + ` +
    `redis-server (no persistence) + this generator on this machine; provider latency ${latency} ms; ${values.consent ? 'categories and opt-outs in use; ' : ''}cascade delay scaled from 30 s to ${delay} ms; ` +
    `each rate held ${seconds} s, steady window after ${settle} s; load average (1/5/15 min) ${loadText(loadAtStart)} at start, ${loadText(loadavg())} at end`;
  process.stdout.write(formatResults(report, values.json));
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:pipeline failed: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exit(1);
});
