import { spawn } from 'node:child_process';
import { findOnPath } from '@notify/platform-kit';

/**
 * External tools these tests drive (Debian packages). Locally a missing tool skips its tests
 * with a message saying what to install; in CI (`CI=true`) a missing tool is a failure, so a
 * CI image without it can never pass by skipping.
 */
export interface Tool {
  name: string;
  /** Debian package that provides it. */
  aptPackage: string;
  available: boolean;
}

export function findTool(name: string, aptPackage: string): Tool {
  return { name, aptPackage, available: findOnPath(name, process.env.PATH) !== undefined };
}

/**
 * `describe` when every tool is present. Otherwise: in CI, one failing test naming the missing
 * tools; locally, a skipped block and a warning.
 */
export function describeWithTools(title: string, tools: Tool[], body: () => void): void {
  const missing = tools.filter((t) => !t.available);
  if (missing.length === 0) {
    describe(title, body);
    return;
  }
  const what = missing.map((t) => `${t.name} (apt-get install -y ${t.aptPackage})`).join(', ');
  if (process.env.CI === 'true') {
    describe(title, () => {
      it('has its tools installed', () => {
        throw new Error(`missing in CI: ${what}`);
      });
    });
    return;
  }
  // eslint-disable-next-line no-console -- the reason for a skip must reach the developer
  console.warn(`SKIPPED "${title}": missing ${what}`);
  describe.skip(title, body);
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (bounded by `timeoutMs`), feeding `input` on stdin. */
export function run(
  command: string,
  args: string[],
  options: { input?: string; cwd?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
