import { readFileSync, readdirSync } from 'node:fs';

/**
 * CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat (Linux); with
 * `withChildren`, its waited-for children's too (cutime + cstime: a PostgreSQL server's ended backends).
 */
export function processCpuSeconds(pid: number, withChildren = false): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]) + (withChildren ? Number(fields[13]) + Number(fields[14]) : 0);
    return ticks / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on every Linux this runs on (sysconf(_SC_CLK_TCK) is not reachable from Node). */
const CLOCK_TICKS = 100;

export type CpuSample = Map<string, number>;

/**
 * Per process: its CPU seconds and those of every process under it, live or ended (a PostgreSQL
 * server is a postmaster and its backends, under `runuser` when run as root).
 */
export function sampleCpu(pids: ReadonlyMap<string, number>): CpuSample {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parentsOf()) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const tree = (pid: number): number | undefined => {
    const own = processCpuSeconds(pid, true);
    if (own === undefined) return undefined;
    return (children.get(pid) ?? []).reduce((sum, child) => sum + (tree(child) ?? 0), own);
  };
  const out: CpuSample = new Map();
  for (const [name, pid] of pids) {
    const s = tree(pid);
    if (s !== undefined) out.set(name, s);
  }
  return out;
}

/** Every live process and its parent, from /proc. */
function parentsOf(): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      out.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

/** Per process: share of one core over the interval (1.0 = a whole core). */
export function cpuShares(before: CpuSample, after: CpuSample, seconds: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, s] of after) {
    const b = before.get(name);
    if (b !== undefined && seconds > 0) out[name] = (s - b) / seconds;
  }
  return out;
}

/**
 * This process's children by role, from /proc (whatever launched them): redis-server, api,
 * postgres, simulators, worker-1..n, and the references' processes, named by their command line.
 */
export function childProcesses(parent = process.pid): Map<string, number> {
  const found: { pid: number; name: string }[] = [];
  for (const [pid, ppid] of parentsOf()) {
    if (ppid !== parent) continue;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      found.push({ pid, name: roleOf(cmdline) });
    } catch {
      // The process ended while we looked.
    }
  }
  const out = new Map<string, number>();
  for (const { pid, name } of found.sort((a, b) => a.pid - b.pid)) {
    let unique = name;
    for (let i = 2; out.has(unique); i += 1) unique = `${name}-${i}`;
    out.set(unique, pid);
  }
  return out;
}

function roleOf(cmdline: string): string {
  if (/redis-server/.test(cmdline)) return 'redis';
  if (/\bpostgres\b/.test(cmdline)) return 'postgres';
  // tsx's esbuild service: the bench's own tooling.
  if (/esbuild/.test(cmdline)) return 'bench esbuild';
  const match = /(apps\/(\w+)\/src|bench\/references\/([\w-]+))/.exec(cmdline);
  return match?.[2] ?? match?.[3] ?? 'other';
}

/** CPU seconds (all but idle and iowait) the whole machine has used so far, from /proc/stat (Linux). */
export function machineCpuSeconds(): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
    return (total - (ticks[3] ?? 0) - (ticks[4] ?? 0)) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
