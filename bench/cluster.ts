/**
 * `npm run bench:cluster`: the same held load (the brief's traffic mix, open loop, batch intake)
 * on the platform as separate processes, first on one redis-server, then on a private Redis
 * Cluster of `--masters` masters + one replica each with `--partitions` partitions, with the
 * intake's WAIT for a replica on (the cluster default) and off. Prints per master its share of
 * Redis CPU (INFO cpu deltas over the hold and its drain) and of keys (DBSIZE), the platform's
 * throughput and latency in each mode, Redis CPU, memory and keys per notification, and the
 * cost of WAIT. Two cores cannot show the gain of three masters: the spread and the
 * per-notification costs are what this machine can measure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ProcessGroup, startProcessPlatform, type ProcessPlatform } from '@notify/platform-kit';
import { holdRate, type BenchTarget, type RateResult } from './pipeline/hold-rate';
import { keyCensus, nodeConnection, sampleNodes, spreadOf, type DataNode, type KeyCensus, type Spread } from './cluster/spread';

const BENCH_TENANT = 'bench';
const BENCH_API_KEY = 'bench-key-000000000000000000001';
/** The intake's WAIT for one replica, switched off (the cluster default is on). */
const WAIT_OFF_ENV: Record<string, string> = { INTAKE_WAIT_REPLICAS: '0' };
const MODES = ['one-redis', 'cluster', 'cluster-no-wait'] as const;
type Mode = (typeof MODES)[number];
const USAGE = `usage: npm run bench:cluster -- [--rate 300] [--seconds 30] [--workers 2] [--masters 3] [--partitions 16]
  [--modes ${MODES.join(',')}] [--provider-latency-ms 20] [--drain-seconds 60] [--json]`;

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '300' },
    seconds: { type: 'string', default: '30' },
    workers: { type: 'string', default: '2' },
    masters: { type: 'string', default: '3' },
    partitions: { type: 'string', default: '16' },
    modes: { type: 'string', default: MODES.join(',') },
    'provider-latency-ms': { type: 'string', default: '20' },
    'transient-delay-ms': { type: 'string', default: '300' },
    'drain-seconds': { type: 'string', default: '60' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});

export interface ModeResult {
  mode: Mode;
  /** Throughput, backlog, intake and urgent first-try latency (bench:pipeline's hold). */
  hold: RateResult;
  /** The data nodes (the one server, or the masters): CPU and keys per node over the hold and its drain. */
  masters: Spread;
  /** The replicas' CPU over the same time (replication's cost), cluster only. */
  replicaCpuSeconds: number | null;
  notifications: number;
  redisCpuUsPerNotification: number | null;
  /** Masters only, and masters + replicas. */
  redisCpuUsPerNotificationWithReplicas: number | null;
  bytesPerNotification: number | null;
  keysPerNotification: number | null;
  scriptCallsPerNotification: number | null;
  commandsPerNotification: number | null;
  /** Over the steady window: the api's and all workers' CPU per delivered notification (what sizes their processes). */
  apiCpuUsPerNotification: number | null;
  workersCpuUsPerNotification: number | null;
  /** Per data node at the end: keys per family and per hash tag (what makes a master's key share uneven). */
  census: { label: string; census: KeyCensus }[];
}

const f = (v: number | null | undefined, d = 0) => (v === null || v === undefined ? 'n/a' : v.toFixed(d));
const pct = (v: number) => `${(v * 100).toFixed(1)} %`;

function positive(name: string, text: string, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0 || n > max) throw new Error(`--${name} must be an integer in 1..${max}`);
  return n;
}

async function dataNodes(platform: ProcessPlatform): Promise<{ masters: DataNode[]; replicas: DataNode[] }> {
  if (!platform.cluster) {
    const url = new URL(platform.redisUrl);
    return { masters: [{ label: `redis :${url.port}`, redis: nodeConnection(url.hostname, Number(url.port)) }], replicas: [] };
  }
  const masters = await platform.cluster.masters();
  const masterPorts = new Set(masters.map((m) => m.port));
  return {
    masters: masters.map((m) => ({
      label: `master :${m.port} (${m.slotCount} slots)`,
      redis: nodeConnection('127.0.0.1', m.port),
    })),
    replicas: platform.cluster.nodes
      .filter((n) => !masterPorts.has(n.port))
      .map((n) => ({
        label: `replica :${n.port}`,
        redis: nodeConnection(n.host, n.port),
      })),
  };
}

async function runMode(
  mode: Mode,
  o: { rate: number; seconds: number; workers: number; masters: number; partitions: number; latency: string; delay: string; drainSeconds: number },
  dir: string,
  log: (line: string) => void,
): Promise<ModeResult> {
  const group = new ProcessGroup({ logDir: dir });
  const inherited = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  log(
    `${mode}: starting the platform (api + ${o.workers} workers + simulators${mode === 'one-redis' ? ' + redis-server' : ` + ${o.masters} masters + ${o.masters} replicas`})`,
  );
  const platform = await startProcessPlatform({
    group,
    inherited,
    workers: o.workers,
    apiKeys: `${BENCH_API_KEY}:${BENCH_TENANT}`,
    appEnv: {
      CASCADE_TRANSIENT_DELAY_MS: o.delay,
      CASCADE_RECONCILE_DELAY_MS: o.delay,
      CASCADE_UNAVAILABLE_RETRY_MS: o.delay,
      ...(mode === 'cluster-no-wait' ? WAIT_OFF_ENV : {}),
    },
    simEnv: { SIM_LATENCY_MS: o.latency },
    dataDir: join(dir, mode),
    ...(mode === 'one-redis' ? {} : { cluster: { masters: o.masters, partitions: o.partitions } }),
  });
  const nodes = await dataNodes(platform);
  try {
    const target: BenchTarget = {
      apiUrl: platform.apiUrl,
      apiKey: BENCH_API_KEY,
      tenant: BENCH_TENANT,
      redis: (nodes.masters[0] as DataNode).redis,
      metricsUrls: [platform.apiMetricsUrl, ...platform.workerUrls.map((u) => `${u}/metrics`)],
    };
    const common = { mode: 'batch', urgentShare: 0.5, drainSeconds: o.drainSeconds, delivering: true } as const;
    log(`${mode}: warm-up ${o.rate / 2}/s for 5 s`);
    await holdRate(target, { ...common, rate: o.rate / 2, seconds: 5, settleSeconds: 1, seed: 1, urgentSample: 0 });
    const before = { masters: await sampleNodes(nodes.masters), replicas: await sampleNodes(nodes.replicas) };
    log(`${mode}: holding ${o.rate}/s for ${o.seconds} s`);
    const hold = await holdRate(target, {
      ...common,
      rate: o.rate,
      seconds: o.seconds,
      settleSeconds: Math.min(5, o.seconds / 4),
      seed: o.rate,
      urgentSample: 1_000,
    });
    const after = { masters: await sampleNodes(nodes.masters), replicas: await sampleNodes(nodes.replicas) };
    const census = await Promise.all(nodes.masters.map(async (node) => ({ label: node.label, census: await keyCensus(node.redis) })));
    const masters = spreadOf(nodes.masters, before.masters, after.masters);
    const replicaCpuSeconds = nodes.replicas.length > 0 ? spreadOf(nodes.replicas, before.replicas, after.replicas).cpuSeconds : null;
    const n = hold.wholeRun?.notifications ?? 0;
    const perDelivered = (share: number) => (hold.deliveredPerSecond > 0 ? (share * 1e6) / hold.deliveredPerSecond : null);
    const cpuOf = (prefix: string) =>
      Object.entries(hold.cpu)
        .filter(([name]) => name === prefix || name.startsWith(`${prefix}-`))
        .reduce((sum, [, share]) => sum + share, 0);
    const per = (v: number) => (n > 0 ? v / n : null);
    return {
      mode,
      hold,
      masters,
      replicaCpuSeconds,
      notifications: n,
      redisCpuUsPerNotification: per(masters.cpuSeconds * 1e6),
      redisCpuUsPerNotificationWithReplicas: per((masters.cpuSeconds + (replicaCpuSeconds ?? 0)) * 1e6),
      bytesPerNotification: per(masters.usedMemoryDelta),
      keysPerNotification: per(masters.keysDelta),
      scriptCallsPerNotification: per(masters.scriptCalls),
      commandsPerNotification: per(masters.commands),
      apiCpuUsPerNotification: perDelivered(cpuOf('api')),
      workersCpuUsPerNotification: perDelivered(cpuOf('worker')),
      census,
    };
  } finally {
    for (const node of [...nodes.masters, ...nodes.replicas]) node.redis.disconnect();
    await platform.stop();
  }
}

function format(results: readonly ModeResult[], header: string): string {
  const out = [header, ''];
  out.push(
    '| mode | accepted/s | delivered/s | verdict | intake p50 / p99 ms | urgent first-try p50 / p99 ms | Redis CPU µs/n (masters; + replicas) | script calls/n | commands/n | memory B/n | keys/n | api / workers CPU µs/n |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of results) {
    const h = r.hold;
    out.push(
      `| ${r.mode} | ${f(h.acceptedPerSecond)} | ${f(h.deliveredPerSecond)} | ${h.verdict} | ${f(h.intakeP50Ms, 1)} / ${f(h.intakeP99Ms, 1)} | ` +
        `${f(h.urgentFirstTry.p50Ms)} / ${f(h.urgentFirstTry.p99Ms)} | ${f(r.redisCpuUsPerNotification)}; ${f(r.redisCpuUsPerNotificationWithReplicas)} | ` +
        `${f(r.scriptCallsPerNotification, 2)} | ${f(r.commandsPerNotification, 1)} | ${f(r.bytesPerNotification)} | ${f(r.keysPerNotification, 2)} | ` +
        `${f(r.apiCpuUsPerNotification)} / ${f(r.workersCpuUsPerNotification)} |`,
    );
  }
  for (const r of results) {
    out.push('', `${r.mode}: ${r.notifications} notifications over the hold and its drain; per data node:`);
    out.push('| node | Redis CPU s | CPU share | keys | keys share | memory delta MB |', '|---|---|---|---|---|---|');
    for (const n of r.masters.nodes)
      out.push(`| ${n.label} | ${n.cpuSeconds.toFixed(2)} | ${pct(n.cpuShare)} | ${n.keys} | ${pct(n.keysShare)} | ${(n.usedMemoryDelta / 1e6).toFixed(1)} |`);
    // Which keys each node holds: a node whose share is off shows the family or the tag that makes it so.
    for (const { label, census } of r.census) {
      const top = (rows: [string, number][], k: number) =>
        rows
          .slice(0, k)
          .map(([name, count]) => `${name} ${count}`)
          .join(', ');
      out.push(`keys of ${label}: ${census.tags.length} tags (most: ${top(census.tags, 3)}); families: ${top(census.families, 8)}`);
    }
    if (r.masters.nodes.length > 1)
      out.push(
        `spread: CPU within ±${pct(r.masters.cpuDeviation)}, keys within ±${pct(r.masters.keysDeviation)} of an even share (goal ±20 %)` +
          (r.replicaCpuSeconds !== null ? `; replicas spent ${r.replicaCpuSeconds.toFixed(2)} s CPU in all` : ''),
      );
  }
  const on = results.find((r) => r.mode === 'cluster');
  const off = results.find((r) => r.mode === 'cluster-no-wait');
  if (on && off) {
    const d = (a: number | null, b: number | null, digits = 1) => (a === null || b === null ? 'n/a' : `${(a - b).toFixed(digits)}`);
    out.push(
      '',
      `cost of WAIT 1 at intake (cluster − cluster-no-wait): intake p50 ${d(on.hold.intakeP50Ms, off.hold.intakeP50Ms)} ms, p99 ${d(on.hold.intakeP99Ms, off.hold.intakeP99Ms)} ms, ` +
        `Redis CPU ${d(on.redisCpuUsPerNotification, off.redisCpuUsPerNotification, 0)} µs/notification (masters), ` +
        `accepted/s ${d(on.hold.acceptedPerSecond, off.hold.acceptedPerSecond, 0)}, urgent first-try p50 ${d(on.hold.urgentFirstTry.p50Ms, off.hold.urgentFirstTry.p50Ms, 0)} ms`,
    );
  }
  return `${out.join('\n')}\n`;
}

async function main(): Promise<void> {
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const o = {
    rate: positive('rate', values.rate, 20_000),
    seconds: positive('seconds', values.seconds, 600),
    workers: positive('workers', values.workers, 16),
    masters: positive('masters', values.masters, 16),
    partitions: positive('partitions', values.partitions, 65_536),
    latency: values['provider-latency-ms'],
    delay: values['transient-delay-ms'],
    drainSeconds: positive('drain-seconds', values['drain-seconds'], 3_600),
  };
  if (o.seconds < 5) throw new Error('--seconds must be at least 5');
  const modes = values.modes.split(',').filter(Boolean) as Mode[];
  for (const m of modes) if (!MODES.includes(m)) throw new Error(`--modes: '${m}' is not one of ${MODES.join(', ')}`);
  const dir = mkdtempSync(join(tmpdir(), 'notify-bench-cluster-'));
  const log = (line: string) => {
    if (!values.json) process.stderr.write(`${line}\n`);
  };
  const results: ModeResult[] = [];
  // Ctrl-C: exit, and the process groups' exit hook SIGKILLs every server and app started.
  const interrupt = () => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    for (const mode of modes) {
      const result = await runMode(mode, o, dir, log);
      results.push(result);
      if (values.json) process.stdout.write(`${JSON.stringify({ kind: 'mode', ...result })}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const cpu = cpus();
  const header =
    `measured on ${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}, Node ${process.version}; api + ${o.workers} worker processes + simulators + ` +
    `Redis (no persistence) + this generator on this machine; ${o.rate}/s held ${o.seconds} s (batch intake, the brief's mix), provider latency ${o.latency} ms; ` +
    `cluster: ${o.masters} masters + ${o.masters} replicas, PARTITIONS=${o.partitions}`;
  if (!values.json) process.stdout.write(format(results, header));
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:cluster failed: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exit(1);
});
