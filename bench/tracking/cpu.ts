import { readFileSync } from 'node:fs';

/** CPU ms a process has used (user + system), from /proc/<pid>/stat; undefined where /proc is missing or the process is gone. */
export function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const hz = 100; // USER_HZ: 100 on every Linux the bench runs on
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / hz;
  } catch {
    return undefined;
  }
}

/** The whole machine's CPU ms, busy and total (every core), from /proc/stat. */
function machineCpuMs(): { busy: number; total: number } | undefined {
  try {
    const ticks = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    const total = ticks.reduce((a, b) => a + b, 0);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    return { busy: (total - idle) * 10, total: total * 10 };
  } catch {
    return undefined;
  }
}

/** CPU used during one run by the api, the stores, this client, and everything else on the machine. */
export interface CpuShare {
  /** CPU µs per query sent, per process (NaN where unknown). */
  apiUsPerQuery: number;
  storesUsPerQuery: number;
  clientUsPerQuery: number;
  /** Cores used by the api process on average over the run. */
  apiCores: number;
  /** Cores used by processes outside the bench (other users of the machine) on average over the run. */
  othersCores: number;
  /** Cores left idle on average. */
  idleCores: number;
}

/** Starts counting; `stop(queries)` returns the shares. */
export function cpuMeter(apiPid: number | undefined, storesPid: number | undefined): { stop(queries: number): CpuShare } {
  const api0 = processCpuMs(apiPid);
  const stores0 = processCpuMs(storesPid);
  const client0 = process.cpuUsage();
  const machine0 = machineCpuMs();
  const t0 = performance.now();
  return {
    stop(queries) {
      const wallMs = performance.now() - t0;
      const used = (a: number | undefined, b: number | undefined): number => (a === undefined || b === undefined ? Number.NaN : b - a);
      const api = used(api0, processCpuMs(apiPid));
      const stores = used(stores0, processCpuMs(storesPid));
      const c = process.cpuUsage(client0);
      const client = (c.user + c.system) / 1000;
      const machine1 = machineCpuMs();
      const busy = machine0 && machine1 ? machine1.busy - machine0.busy : Number.NaN;
      const total = machine0 && machine1 ? machine1.total - machine0.total : Number.NaN;
      const q = Math.max(1, queries);
      const ours = (Number.isNaN(api) ? 0 : api) + (Number.isNaN(stores) ? 0 : stores) + client;
      return {
        apiUsPerQuery: (api * 1000) / q,
        storesUsPerQuery: (stores * 1000) / q,
        clientUsPerQuery: (client * 1000) / q,
        apiCores: api / wallMs,
        othersCores: Math.max(0, busy - ours) / wallMs,
        idleCores: (total - busy) / wallMs,
      };
    },
  };
}
