/**
 * `npm run bench:pipeline`: the whole path (HTTP intake → Redis → channel lanes → provider HTTP
 * calls → status, and with the history the archival to PostgreSQL) as separate processes on this
 * machine, each offered rate HELD for `--seconds` (open loop), set up as `--profile` says
 * (bench/pipeline/profiles.ts; default `production`, what is deployed). The references measured in
 * the same run (`--references`): the bare full path (bench/references/bare-full-path.ts) held at
 * the same rates (default), the bare two-hop BullMQ pipeline at its ceiling, the bare intake
 * prototype against the api with Redis alone. A rate is "sustained" only if intake kept up and
 * deliveries kept up over the steady window (backlog at the end <= 2 s of traffic and not
 * growing; with the history, the archive queue not growing either). Options: see USAGE.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessGroup } from '@notify/platform-kit';
import { runIntakeReferences, runTwoHop } from './pipeline/bare-references';
import { setUpConsent, withConsent } from './pipeline/consent-traffic';
import { withRedis, type BenchContext } from './pipeline/context';
import { formatResults, type BenchReport } from './pipeline/format';
import { runFullPath } from './pipeline/full-path-reference';
import { holdRates } from './pipeline/hold-rates';
import { benchOptions, USAGE, type BenchOptions } from './pipeline/options';
import { BENCH_API_KEY, BENCH_TENANT, startBenchPlatform } from './pipeline/platform-start';
import { PROFILES, profileText, startProfileServices } from './pipeline/profiles';
import { startWebhookEndpoint, type WebhookReceiver } from './pipeline/webhook-receiver';

const loadText = (l: number[]) => l.map((v) => v.toFixed(2)).join('/');

/** The platform as the profile sets it up, each rate held; its results go into `report`. */
async function runPlatform(ctx: BenchContext, report: BenchReport): Promise<void> {
  const o = ctx.options;
  const profile = PROFILES[o.profile];
  ctx.log(
    `platform (${o.profile}): ${o.apiInstances > 1 ? `${o.apiInstances} api instances` : 'api'} + ${o.workers} workers + simulators + Redis, ${o.mode} intake`,
  );
  const services = await startProfileServices(o.profile, { group: ctx.phase(), inherited: ctx.inherited, log: ctx.log, signal: ctx.signal });
  let receiver: WebhookReceiver | undefined;
  try {
    const platform = await startBenchPlatform(ctx, {
      workers: o.workers,
      apis: o.apiInstances,
      redisPersistence: profile.redisPersistence,
      appEnv: services.appEnv,
    });
    try {
      if (profile.webhooks) receiver = await startWebhookEndpoint(platform.apiUrl, BENCH_API_KEY);
      if (o.consent) await setUpConsent(platform.apiUrl, BENCH_API_KEY);
      report.rates = await withRedis(platform.redisUrl, (redis) =>
        holdRates(
          {
            apiUrl: platform.apiUrl,
            apiUrls: platform.apiUrls,
            apiKey: BENCH_API_KEY,
            tenant: BENCH_TENANT,
            redis,
            metricsUrls: [...platform.apiMetricsUrls, ...platform.workerUrls.map((u) => `${u}/metrics`)],
          },
          {
            rates: o.rates,
            overload: o.overload,
            seconds: o.seconds,
            settle: o.settle,
            log: ctx.log,
            common: {
              mode: o.mode,
              urgentShare: 0.5,
              drainSeconds: o.drainSeconds,
              urgentSample: o.urgentSample,
              delivering: true,
              history: profile.history,
              webhooks: profile.webhooks,
              ...(o.consent ? { shape: withConsent } : {}),
            },
            each: (result) => {
              if (o.json) process.stdout.write(`${JSON.stringify({ kind: 'rate', label: report.label, ...result })}\n`);
            },
          },
        ),
      );
      report.webhookRequests = receiver?.received();
    } finally {
      await platform.stop();
    }
  } finally {
    await receiver?.close();
    await services.stop();
  }
}

function header(o: BenchOptions, loadAtStart: number[]): string {
  const cpu = cpus();
  return (
    `measured on ${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}, Node ${process.version}; ${profileText(o.profile)}; ` +
    `${o.apiInstances > 1 ? `${o.apiInstances} api instances (round-robin)` : 'api'} + ${o.workers} worker processes + simulators + ` +
    `redis-server${PROFILES[o.profile].history ? ' + postgres' : ''} + this generator on this machine; provider latency ${o.latency} ms; ` +
    `${o.consent ? 'categories and opt-outs in use; ' : ''}cascade delay scaled from 30 s to ${o.delay} ms; ` +
    `each rate held ${o.seconds} s, steady window after ${o.settle} s; load average (1/5/15 min) ${loadText(loadAtStart)} at start, ${loadText(loadavg())} at end`
  );
}

async function main(): Promise<void> {
  const options = benchOptions();
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const loadAtStart = loadavg();
  const dir = mkdtempSync(join(tmpdir(), 'notify-bench-'));
  const groups: ProcessGroup[] = [];
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
  const ctx: BenchContext = {
    options,
    dir,
    inherited: Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
    phase: () => {
      const g = new ProcessGroup({ logDir: dir });
      groups.push(g);
      return g;
    },
    signal: abort.signal,
    log: (line) => {
      if (!options.json) process.stderr.write(`${line}\n`);
    },
  };
  const report: BenchReport = {
    header: '',
    profile: PROFILES[options.profile],
    rates: [],
    intake: [],
    twoHop: undefined,
    fullPath: [],
    webhookRequests: undefined,
    label: Object.entries(options.extraEnv)
      .map(([k, v]) => `${k}=${v}`)
      .join(' '),
  };
  const refs = options.references;
  try {
    if (refs.has('two-hop')) report.twoHop = await runTwoHop(ctx);
    if (refs.has('intake')) report.intake = await runIntakeReferences(ctx);
    if (refs.has('full-path')) {
      if (options.mode === 'batch') report.fullPath = await runFullPath(ctx, PROFILES[options.profile].redisPersistence);
      else ctx.log('reference: the bare full path takes batches only; not run with --mode single');
    }
    await runPlatform(ctx, report);
  } finally {
    await Promise.all(groups.map((g) => g.stopAll()));
    rmSync(dir, { recursive: true, force: true });
  }
  report.header = header(options, loadAtStart);
  process.stdout.write(formatResults(report, options.json));
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:pipeline failed: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exit(1);
});
