import { existsSync, readFileSync } from 'node:fs';
import { hostname as osHostname } from 'node:os';
import type { Channel } from '@notify/core';
import { listProcesses, removeProcess, type ProcessInfo } from '@notify/runtime';
import { CliError, EXIT } from '@notify/platform-kit';
import type { ChaosIo } from '../io';
import { connectRedis, redactUrl } from './redis-connect';

const isAlive = (kill: NonNullable<ChaosIo['kill']>, pid: number): boolean => {
  try {
    kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** A registration outlives its process by up to its TTL, and pids are reused: only signal a node process. */
function looksLikeNode(pid: number): boolean {
  const path = `/proc/${pid}/cmdline`;
  if (!existsSync('/proc/self/cmdline')) return true; // no procfs: trust the heartbeat TTL
  try {
    return /node|tsx/.test(readFileSync(path, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * SIGKILLs one registered worker process on this host that runs `role` (any worker for
 * 'all'), oldest first: a crash, not a drain. BullMQ hands its active jobs to another worker
 * once their locks expire; the records make the re-run idempotent.
 */
export async function killWorker(url: string, timeoutMs: number, role: Channel | 'all', io: ChaosIo): Promise<number> {
  const kill =
    io.kill ??
    ((pid: number, signal: NodeJS.Signals | 0) => {
      process.kill(pid, signal);
    });
  const host = io.hostname ?? osHostname();
  const redis = await connectRedis(url, timeoutMs);
  try {
    const workers = (await listProcesses(redis)).filter((p) => p.app === 'worker' && (role === 'all' || p.roles.includes(role)));
    const here = workers.filter((p) => p.host === host);
    if (here.length === 0) {
      const elsewhere = [...new Set(workers.map((p) => p.host))];
      throw new CliError(
        'NOT_FOUND',
        elsewhere.length > 0
          ? `the workers running ${role} are registered on other hosts (${elsewhere.join(', ')}); kill-worker only signals processes on this host (${host})`
          : `no registered worker runs ${role === 'all' ? 'any role' : `role ${role}`} (workers register in Redis at start; is the platform running on ${redactUrl(url)}?)`,
      );
    }
    for (const worker of here) {
      if (!isAlive(kill, worker.pid) || !looksLikeNode(worker.pid)) {
        await removeProcess(redis, worker.id); // a stale registration: the process is gone
        io.err(`chaos: worker pid ${worker.pid} was registered but is gone; forgot it`);
        continue;
      }
      kill(worker.pid, 'SIGKILL');
      await waitForExit(kill, worker.pid, 2_000);
      await removeProcess(redis, worker.id);
      io.out(describeKill(worker));
      return EXIT.ok;
    }
    throw new CliError('NOT_FOUND', `every registered worker running ${role} on this host was already gone`);
  } finally {
    redis.disconnect();
  }
}

async function waitForExit(kill: NonNullable<ChaosIo['kill']>, pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && isAlive(kill, pid)) await new Promise((resolve) => setTimeout(resolve, 20));
}

function describeKill(p: ProcessInfo): string {
  const up = ((Date.now() - p.startedAt) / 1_000).toFixed(1);
  return `killed worker pid ${p.pid} on ${p.host} (SIGKILL; roles ${p.roles.join(',')}; up ${up} s); its active jobs go to another worker when their locks expire`;
}
