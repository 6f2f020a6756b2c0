import { hostname } from 'node:os';
import { EXIT } from '@notify/platform-kit';
import { runChaos } from './run-chaos';

/** `npm run chaos -- <command>`: a thin entry; everything happens in runChaos. */
runChaos(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
  hostname: hostname(),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`chaos: unexpected failure: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = EXIT.failed;
  },
);
