import { EXIT } from '@notify/platform-kit';
import { runScenario } from './scenario/run-scenario';

/**
 * `npm run chaos:scenario -- push-down ...`: a thin entry. SIGINT/SIGTERM abort the run (its
 * `finally` stops every process); a second signal, or the process exiting any other way,
 * SIGKILLs whatever is left (each ProcessGroup does that from process 'exit').
 */
const abort = new AbortController();
let signals = 0;
const onSignal = () => {
  signals += 1;
  if (signals > 1) process.exit(EXIT.interrupted);
  process.stderr.write('chaos:scenario: interrupted; stopping every process it started...\n');
  abort.abort();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

runScenario(
  process.argv.slice(2),
  {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    env: process.env,
  },
  abort.signal,
).then(
  (code) => {
    process.exitCode = abort.signal.aborted ? EXIT.interrupted : code;
    // Every child is stopped by now; if a stray handle still holds the loop, do not hang the terminal.
    setTimeout(() => process.exit(), 3_000).unref();
  },
  (error: unknown) => {
    process.stderr.write(`chaos:scenario: unexpected failure: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = EXIT.failed;
  },
);
