/**
 * `npm run bench:tenants`: one tenant's flood against another's steady traffic, with fair share
 * in the lanes on and off, in one run. Tenant A posts `--flood` reminders as fast as intake takes
 * them (and once at its rate limit, `--a-limit`); tenant B sends `--b-rate` urgent and as many
 * reminders a second while A's backlog drains. Prints A's throughput (against A alone at the same
 * limit) and B's accepted→delivered p50/p99, urgent (first try) and reminders. Each case is a fresh platform as
 * processes on this machine: api, workers, simulators, redis-server with AOF, history off.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ProcessGroup } from '@notify/platform-kit';
import { figureLines, targetLines } from './tenants/figures';
import { runCase, type CaseResult, type TenantCase } from './tenants/run-case';

const { values } = parseArgs({
  options: {
    flood: { type: 'string', default: '100000' },
    'b-rate': { type: 'string', default: '10' },
    'a-limit': { type: 'string', default: '1500' },
    workers: { type: 'string', default: '2' },
    'provider-latency-ms': { type: 'string', default: '20' },
  },
  strict: true,
});

async function main(): Promise<void> {
  const flood = Number(values.flood);
  const bRate = Number(values['b-rate']);
  const aLimit = Number(values['a-limit']);
  if (!(flood >= 1_000 && flood <= 1_000_000)) throw new Error('--flood must be in [1000, 1000000]');
  if (!(bRate > 0 && bRate <= 500) || !(aLimit > 0)) throw new Error('--b-rate must be in (0, 500], --a-limit above 0');
  const dir = mkdtempSync(join(tmpdir(), 'notify-bench-tenants-'));
  const inherited = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const loadAtStart = loadavg();
  const cases: TenantCase[] = [
    { label: 'A alone', fairShare: true, aLimit: undefined, bRate: 0 },
    { label: 'fair share off', fairShare: false, aLimit: undefined, bRate },
    { label: 'fair share on', fairShare: true, aLimit: undefined, bRate },
    { label: `A alone, limited to ${aLimit}/s`, fairShare: true, aLimit, bRate: 0 },
    { label: `fair share on, A limited to ${aLimit}/s`, fairShare: true, aLimit, bRate },
    { label: 'fair share on, backpressure on', fairShare: true, aLimit: undefined, bRate, backpressure: true },
  ];
  const results: CaseResult[] = [];
  try {
    for (const c of cases) {
      log(`case: ${c.label}`);
      const group = new ProcessGroup({ logDir: dir });
      try {
        results.push(await runCase(c, { group, inherited, dir, flood, workers: Number(values.workers), latencyMs: values['provider-latency-ms'], log }));
      } finally {
        await group.stopAll();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const cpu = cpus();
  const header =
    `bench:tenants on ${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}, Node ${process.version}; api + ${values.workers} workers + simulators ` +
    `(${values['provider-latency-ms']} ms, nothing failing) + redis-server (AOF everysec), history off, intake backpressure off but in the last case; A floods ${flood} reminders, ` +
    `B ${bRate}/s urgent + ${bRate}/s reminders; load ${loadAtStart.map((l) => l.toFixed(2)).join('/')} -> ${loadavg()
      .map((l) => l.toFixed(2))
      .join('/')}`;
  process.stdout.write(`${[header, '', ...figureLines(results), '', ...targetLines(results)].join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:tenants failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
