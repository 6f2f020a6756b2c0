import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ADDRESS_IN_USE,
  findOnPath,
  freePort,
  freePorts,
  isMissingBinaryError,
  PortTakenError,
  REPO_ROOT,
  retryOnPortTaken,
  waitFor,
} from '@notify/platform-kit';
import { startTestCluster } from '../cluster/cluster-fixture';
import { ensureTestBinaries } from '../harness/binaries';
import { LIGHT_WARMUP_ENV } from '../harness/light-warm-up';

/**
 * A fresh machine with only Node.js: PATH is one directory holding node, a few coreutils and,
 * per case, a fake apt-get (it records its calls, and "installs" redis-server by linking the
 * real one, or installs nothing) and a fake passwordless sudo. The real install step is stubbed
 * only here; what is checked is what the user sees: the message names the package.
 */
const REAL_REDIS = findOnPath('redis-server', process.env.PATH);
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function machine(apt: 'installs' | 'installs-nothing' | 'none'): { path: string; aptCalls: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'notify-bare-machine-'));
  dirs.push(dir);
  symlinkSync(process.execPath, join(dir, 'node'));
  for (const tool of ['env', 'true']) {
    const real = findOnPath(tool, process.env.PATH);
    if (real) symlinkSync(real, join(dir, tool));
  }
  const script = (name: string, body: string) => {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  };
  if (apt !== 'none') {
    const link = apt === 'installs' ? `[ "$1" = install ] && /bin/ln -sf '${REAL_REDIS}' '${dir}/redis-server'` : ':';
    script('apt-get', `echo "$*" >> '${dir}/apt-calls.log'\n${link}\nexit 0`);
    script('sudo', '[ "$1" = -n ] && shift\nexec "$@"');
  }
  return {
    path: dir,
    aptCalls: () => (existsSync(join(dir, 'apt-calls.log')) ? readFileSync(join(dir, 'apt-calls.log'), 'utf8').trim().split('\n') : []),
  };
}

/** The ensure step on a machine without redis-server whose apt works: what it said, and apt's calls. */
async function installOnBareMachine(isRoot: boolean): Promise<{ said: string[]; bare: ReturnType<typeof machine> }> {
  const bare = machine('installs');
  const said: string[] = [];
  await ensureTestBinaries({
    env: { PATH: bare.path },
    log: (line) => {
      said.push(line);
    },
    isRoot,
  });
  expect(bare.aptCalls()).toEqual(['update -qq', 'install -y -qq --no-install-recommends redis-server']);
  return { said, bare };
}

describe("the test harness's ensure step (jest globalSetup)", () => {
  it('installs a missing redis-server with apt, saying so, as root', async () => {
    const { said, bare } = await installOnBareMachine(true);
    expect(said).toEqual(['redis-server not found: installing redis-server with apt']);
    expect(findOnPath('redis-server', bare.path)).toBe(join(bare.path, 'redis-server'));
  });

  it('installs through passwordless sudo when not root', async () => {
    const { said } = await installOnBareMachine(false);
    expect(said).toEqual(['redis-server not found: installing redis-server with apt (sudo)']);
  });

  it.each([
    ['no apt-get', 'none' as const, true, /apt-get is not available here/],
    ['apt installed nothing', 'installs-nothing' as const, true, /still not on PATH/],
  ])('%s: stops with one line naming the package and the command', async (_case, apt, isRoot, why) => {
    const bare = machine(apt);
    const error = await ensureTestBinaries({ env: { PATH: bare.path }, log: () => undefined, isRoot }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isMissingBinaryError(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toMatch(why);
    expect(message).toContain('install the Debian package redis-server (sudo apt-get install -y redis-server)');
    expect(message.split('\n')).toHaveLength(1);
  });

  it('refuses to install without root or passwordless sudo', async () => {
    const bare = machine('installs');
    rmSync(join(bare.path, 'sudo'));
    const error = await ensureTestBinaries({ env: { PATH: bare.path }, log: () => undefined, isRoot: false }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/^redis-server not found on PATH; not root and no passwordless sudo: install the Debian package redis-server/);
    expect(bare.aptCalls()).toEqual([]);
  });
});

interface Supervisor {
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  stop: () => void;
}

/** `npm start`'s supervisor (scripts/start.sh execs it) on the bare machine: by default with no Redis at REDIS_URL; SIGKILLed after 60 s (or `killAfterMs`). */
async function spawnSupervisor(path: string, env: Record<string, string> = {}, killAfterMs = 60_000): Promise<Supervisor> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/run-platform.ts'], {
    cwd: REPO_ROOT,
    env: { PATH: path, REDIS_URL: `redis://127.0.0.1:${await freePort()}`, HOME: tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += String(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += String(chunk);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    }),
  );
  return { stdout: () => stdout, stderr: () => stderr, exited, stop: () => child.kill('SIGTERM') };
}

async function npmStart(path: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const supervisor = await spawnSupervisor(path, env);
  const code = await supervisor.exited;
  return { code, stdout: supervisor.stdout(), stderr: supervisor.stderr() };
}

// Each case runs its own bare machine, supervisor and ports: the cases of a block run side by side.
describe("npm start's check", () => {
  it.concurrent('without apt-get: exits 1 with one line naming the package and the command, starting nothing', async () => {
    const result = await npmStart(machine('none').path);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      '[start] redis-server not found on PATH; apt-get is not available here: install the Debian package redis-server (sudo apt-get install -y redis-server) and run this again, or set REDIS_URL to a Redis that runs',
    ]);
    expect(result.stdout).not.toMatch(/starting redis-server/);
  });

  it.concurrent('with apt-get: says it installs redis-server and calls apt for it (stubbed: nothing is installed, so it stops)', async () => {
    const bare = machine('installs-nothing');
    const result = await npmStart(bare.path);
    expect(result.stdout).toMatch(/^\[start\] redis-server not found: installing redis-server with apt/m);
    expect(bare.aptCalls()).toContain('install -y -qq --no-install-recommends redis-server');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/still not on PATH: install the Debian package redis-server \(sudo apt-get install -y redis-server\)/);
  });
});

describe('npm start with REDIS_CLUSTER_NODES', () => {
  it.concurrent('with no cluster there: exits 1 with one line naming the nodes, starting and installing no redis-server', async () => {
    const bare = machine('installs');
    const nodes = `127.0.0.1:${await freePort()},127.0.0.1:${await freePort()}`;
    const result = await npmStart(bare.path, { REDIS_CLUSTER_NODES: nodes, PARTITIONS: '16', HISTORY_ENABLED: 'false' });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[start\] the Redis Cluster at REDIS_CLUSTER_NODES is not up: 127\.0\.0\.1:\d+ does not answer CLUSTER INFO .*; 127\.0\.0\.1:\d+ does not answer/,
    );
    expect(lines[0]).toMatch(/start it \(docs\/cluster\.md\), or unset REDIS_CLUSTER_NODES to run on one Redis$/);
    expect(bare.aptCalls()).toEqual([]);
    expect(result.stdout).not.toMatch(/redis-server/);
  });

  it.concurrent(
    'on a running cluster: starts no redis-server (none is on PATH) and the api is ready on the cluster',
    async () => {
      const cluster = await startTestCluster({ replicasPerMaster: 0, persistence: 'none' });
      const bare = machine('none');
      const names = ['API_PORT', 'API_METRICS_PORT', 'WORKER_METRICS_PORT', 'SIM_CONTROL_PORT', 'SIM_PUSH_PORT', 'SIM_SMS_PORT', 'SIM_EMAIL_PORT'];
      // The apps bind the ports they are given a moment after these were found free: when the api
      // (the one npm start gives up on) could not bind one, npm start runs again on fresh ports.
      const startOnFreePorts = async (): Promise<Supervisor> => {
        const ports = Object.fromEntries((await freePorts(names.length)).map((port, i) => [names[i]!, String(port)]));
        const supervisor = await spawnSupervisor(
          bare.path,
          { REDIS_CLUSTER_NODES: cluster.nodesEnv, PARTITIONS: '16', HISTORY_ENABLED: 'false', ...LIGHT_WARMUP_ENV, ...ports },
          120_000,
        );
        try {
          await waitFor(
            'the api started by npm start to be ready',
            async () => {
              if (/^\[start\] .*(exited|stopping)/m.test(supervisor.stdout()))
                throw new Error(`npm start gave up:\n${supervisor.stdout()}\n${supervisor.stderr()}`);
              const res = await fetch(`http://127.0.0.1:${ports.API_PORT}/readyz`).catch(() => undefined);
              return res?.status === 200;
            },
            90_000,
            250,
          );
          return supervisor;
        } catch (error) {
          supervisor.stop();
          await supervisor.exited;
          if (ADDRESS_IN_USE.test(supervisor.stdout() + supervisor.stderr()))
            throw new PortTakenError(`npm start could not bind one of ${Object.values(ports).join(', ')}`);
          throw error;
        }
      };
      try {
        const supervisor = await retryOnPortTaken('npm start', startOnFreePorts);
        try {
          expect(supervisor.stdout()).toMatch(/^\[start\] Redis Cluster answers at 127\.0\.0\.1:\d+.* \(cluster_state:ok; no redis-server started\)$/m);
          expect(supervisor.stdout()).not.toMatch(/starting redis-server|redis-server not found/);
        } finally {
          supervisor.stop();
          expect(await supervisor.exited).toBe(0);
        }
      } finally {
        await cluster.stop();
      }
    },
    150_000,
  );
});
