import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { runScenario } from '../../apps/chaos/src/scenario/run-scenario';
import type { RunResult } from '../../apps/chaos/src/scenario/run-push-down';
import type { ProcessGroup } from '@notify/platform-kit';
import { processAlive as alive, waitFor } from '@notify/platform-kit';

const ROOT = join(__dirname, '..', '..');

function descendants(root: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number));
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of rows)
      if (parent === pid && child !== undefined) {
        found.push(child);
        walk(child);
      }
  };
  walk(root);
  return found;
}

/** One in-process scenario run with its output captured, and the process groups it started. */
async function runCaptured(argv: readonly string[]): Promise<{ code: number; out: string[]; err: string[]; groups: ProcessGroup[] }> {
  const groups: ProcessGroup[] = [];
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    out: (t: string) => {
      out.push(t);
    },
    err: (t: string) => {
      err.push(t);
    },
    env: { PATH: process.env.PATH ?? '' },
  };
  const code = await runScenario(argv, io, new AbortController().signal, groups);
  return { code, out, err, groups };
}

/** The logs of a failed run are kept for diagnosis (its stderr names the folder); a run that failed on purpose removes them. */
function removeKeptLogs(err: readonly string[]): void {
  const dir = /(\/\S*notify-scenario-[^/\s]+)/.exec(err.join('\n'))?.[1];
  if (dir) rmSync(dir, { recursive: true, force: true });
}

// Every test starts processes of its own and shares nothing with the others, so two run at a
// time: one's start-up overlaps the other's load and drain. More at once would starve the
// start-ups (each compiles its apps with tsx) on a two-core machine.
describe('a run beside an interrupted one', () => {
  it.concurrent(
    'push-down runs end to end (small, breaker on), reports, and leaves no process behind',
    async () => {
      // At 100/s push's calls fill the breaker's 1 s window well inside the 2 s outage, and the
      // last second of load gives it probes to close on (without them the run waits out its bound).
      const { code, out, err, groups } = await runCaptured([
        'push-down',
        '--notifications',
        '400',
        '--rate',
        '100',
        '--breaker',
        'on',
        '--workers',
        '1',
        '--json',
      ]);
      const report = JSON.parse(out.join('\n')) as {
        runs: { figures: { deliveryRate: number; wastedCalls: number }; duplicates: number; breakerActive: boolean; openedAfterMs?: number }[];
      };
      expect({ code, err: err.filter((l) => !/run with the breaker/.test(l)) }).toEqual({ code: 0, err: [] });
      const [run] = report.runs;
      expect(run).toMatchObject({ duplicates: 0, breakerActive: true });
      expect(run!.figures.deliveryRate).toBeGreaterThanOrEqual(0.99);
      expect(run!.openedAfterMs).toBeDefined();
      // redis-server, simulators, api, worker: all started, all stopped.
      expect(groups[0]?.count).toBe(4);
      expect(groups[0]?.running).toBe(0);
      removeKeptLogs(err);
    },
    240_000,
  );

  it.concurrent(
    'SIGINT stops every process the scenario started',
    async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'apps/chaos/src/scenario.ts', 'push-down', '--breaker', 'on', '--workers', '1'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += String(chunk);
      });
      try {
        // Interrupt mid-load: redis-server, simulators, api and a worker are all running.
        // Startup compiles four apps with tsx: on a busy machine that takes a while (a bound, not a timing).
        await waitFor('the load to start', () => /sending \d+ notifications/.test(stderr), 150_000, 100);
        const all = await waitFor(
          'redis-server, simulators, api and a worker running',
          () => {
            const found = descendants(child.pid!);
            return found.length >= 4 ? found : undefined;
          },
          10_000,
          100,
        );
        child.kill('SIGINT');
        const timeout = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 20_000).unref());
        const code = await Promise.race([exited, timeout]);
        expect({ code, stderr }).toEqual({ code: 130, stderr: expect.stringMatching(/interrupted/) });
        await waitFor('every child to be gone', () => all.every((pid) => !alive(pid)), 5_000, 100);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    },
    240_000,
  );
});

describe('a failover run beside a run that fails to start', () => {
  it.concurrent(
    'push-down with two push providers: push-a killed through the CLI, push goes on through push-b, no duplicate across both ledgers',
    async () => {
      const { code, out, err, groups } = await runCaptured(
        // A 2 s outage at 150/s: push-a's calls reach its breaker's minimum volume in a 1 s window long before push-a comes back.
        ['push-down', '--push-providers', '2', '--notifications', '600', '--rate', '150', '--breaker', 'on', '--workers', '1', '--json'],
      );
      expect({ code, err: err.filter((l) => !/run with the breaker|platform up/.test(l)) }).toEqual({ code: 0, err: [] });
      const report = JSON.parse(out.join('\n')) as { runs: RunResult[] };
      const [run] = report.runs;
      expect(run).toMatchObject({ duplicates: 0, breakerActive: true, failover: { killed: 'push-a', ledgerDuplicateKeys: 0 } });
      const f = run!.failover!;
      // Every delivered notification is one delivered key in exactly one of the two ledgers.
      expect(f.ledgerDeliveredKeys).toBe(f.delivered);
      const [a, b] = f.figures.providers;
      process.stdout.write(`push-down, two push providers: ${JSON.stringify({ providers: f.figures.providers, breakers: f.breakers })}\n`);
      expect(a).toMatchObject({ name: 'push-a' });
      expect(b).toMatchObject({ name: 'push-b' });
      // push-a refused calls after the kill; push-b delivered push while push-a was down.
      expect(a!.callsWhileDown - a!.deliveriesWhileDown).toBeGreaterThan(0);
      expect(b!.deliveriesWhileDown).toBeGreaterThan(0);
      expect(f.figures.deliveredOnChannel).toBeGreaterThan(0);
      expect(f.breakers['push-a']?.openedAfterMs).toBeDefined();
      expect(run!.figures.deliveryRate).toBeGreaterThanOrEqual(0.99);
      // redis-server, both simulators processes, api, worker: all started, all stopped.
      expect(groups[0]?.count).toBe(5);
      expect(groups[0]?.running).toBe(0);
    },
    240_000,
  );

  it.concurrent(
    'a process that fails to start fails the run, and every process started so far is stopped',
    async () => {
      const { code, err, groups } = await runCaptured([
        'push-down',
        '--breaker',
        'off',
        '--workers',
        '1',
        '--worker-entry',
        'test/chaos/fixtures/no-such-worker.ts',
      ]);
      expect(code).toBe(1);
      expect(err.join('\n')).toMatch(/worker-1 exited before it was ready/);
      expect(groups[0]?.count).toBe(4);
      expect(groups[0]?.running).toBe(0);
      removeKeptLogs(err);
    },
    240_000,
  );
});
