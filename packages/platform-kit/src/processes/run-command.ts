import { spawn } from 'node:child_process';

/**
 * Runs a command to completion (initdb, createdb, redis-cli --cluster ...), resolving with its
 * output; rejects on a non-zero exit or signal with the output's end in the message, and
 * SIGKILLs it after `timeoutMs` when one is given.
 */
export function runCommand(command: string, args: readonly string[], env: Record<string, string | undefined>, timeoutMs?: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (c: Buffer) => {
      output = (output + c.toString()).slice(-16_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} exited ${signal ?? code}\n${output.slice(-4_000)}`));
    });
  });
}
