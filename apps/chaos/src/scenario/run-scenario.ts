import { rmSync } from 'node:fs';
import { EXIT, isCliError, type ProcessGroup } from '@notify/platform-kit';
import { loadScenarioEnv } from '../config';
import type { ChaosIo } from '../io';
import { formatReport } from './report';
import { runPushDown, type RunResult } from './run-push-down';
import { parseScenarioArgs, SCENARIO_USAGE } from './scenario-args';

/** Hard bound on one scenario, whatever its options: past it, everything is stopped. */
const MAX_SCENARIO_MS = 10 * 60_000;

/**
 * `chaos:scenario push-down ...` as a function. Every process it starts is registered in a
 * ProcessGroup (listed in `groups` for the caller; each group SIGKILLs its children from process
 * 'exit' by itself), and stopped in
 * `finally` on success, failure, timeout or `signal` (SIGINT).
 */
export async function runScenario(argv: readonly string[], io: ChaosIo, signal: AbortSignal, groups: ProcessGroup[] = []): Promise<number> {
  let options;
  try {
    options = parseScenarioArgs(argv);
  } catch (error) {
    if (!isCliError(error)) throw error;
    io.err(`chaos:scenario: ${error.message}`);
    io.err("run 'npm run chaos:scenario -- help' for the options");
    return error.exitCode;
  }
  if (options === 'help') {
    io.out(SCENARIO_USAGE);
    return EXIT.ok;
  }
  const env = loadScenarioEnv(io.env);
  // Our own abort: the caller's signal (SIGINT) or the hard time bound, linked by hand.
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  const bound = setTimeout(() => abort.abort(), MAX_SCENARIO_MS);
  const started = Date.now();
  const runs: RunResult[] = [];
  try {
    for (const mode of options.breaker) {
      if (!options.json) io.err(`chaos:scenario: run with the breaker ${mode}...`);
      const progress = (text: string) => {
        if (!options.json) io.err(`chaos:scenario: ${text}`);
      };
      runs.push(await runPushDown(options, mode, { env, signal: abort.signal, groups, progress }));
      if (abort.signal.aborted) throw new Error('interrupted');
    }
  } catch (error) {
    io.err(`chaos:scenario: failed: ${error instanceof Error ? error.message : String(error)}`);
    if (abort.signal.aborted) io.err('chaos:scenario: every process it started was stopped');
    return EXIT.failed;
  } finally {
    clearTimeout(bound);
    signal.removeEventListener('abort', onAbort);
  }
  const elapsed = Date.now() - started;
  if (options.json) io.out(JSON.stringify({ options, runs, elapsedMs: elapsed }, null, 2));
  else io.out(formatReport(options, runs, elapsed));
  for (const run of runs) rmSync(run.logDir, { recursive: true, force: true });
  const ok = runs.every((r) => r.duplicates === 0 && r.unfinished === 0);
  return ok ? EXIT.ok : EXIT.failed;
}
