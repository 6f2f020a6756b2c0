import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A note on disk of every process group a ProcessGroup starts and sees exit, so that a
 * supervisor outside the runner (jest's globalTeardown) can kill what a runner left behind
 * when it was killed itself or timed out before its clean-up: a killed runner's 'exit' hook
 * never runs, and its children, leaders of their own groups, outlive it.
 */
let ledgerDir: string | undefined;

/** From now on, this process notes its children in `<dir>/<pid>.pids`; undefined stops it. */
export function recordChildrenIn(dir: string | undefined): void {
  ledgerDir = dir;
}

/** The kernel's start time of `pid` (field 22 of /proc/<pid>/stat): a reused pid has another one. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function note(line: string): void {
  if (!ledgerDir) return;
  try {
    appendFileSync(join(ledgerDir, `${process.pid}.pids`), `${line}\n`);
  } catch {
    /* the ledger is a safety net: a run goes on without it */
  }
}

export function noteStarted(pid: number | undefined): void {
  if (pid !== undefined && ledgerDir) note(`+ ${pid} ${startTime(pid) ?? '?'}`);
}

export function noteExited(pid: number | undefined): void {
  if (pid !== undefined && ledgerDir) note(`- ${pid}`);
}

/** SIGKILLs the process group of every child noted in `dir` that never exited and is still the same process; returns their pids. */
export function killLeftovers(dir: string): number[] {
  const started = new Map<number, string>();
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.pids'));
  } catch {
    return [];
  }
  for (const file of files) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      const [sign, pid, start] = line.split(' ');
      if (sign === '+' && start) started.set(Number(pid), start);
      if (sign === '-') started.delete(Number(pid));
    }
  }
  const killed: number[] = [];
  for (const [pid, start] of started) {
    if (start === '?' || startTime(pid) !== start) continue;
    try {
      process.kill(-pid, 'SIGKILL');
      killed.push(pid);
    } catch {
      /* already gone */
    }
  }
  return killed;
}
