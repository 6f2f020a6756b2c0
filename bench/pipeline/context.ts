import { Redis } from 'ioredis';
import type { ProcessGroup } from '@notify/platform-kit';
import type { BenchOptions } from './options';

/** What every phase of a run shares: the options, its data directory, its process groups, Ctrl-C. */
export interface BenchContext {
  options: BenchOptions;
  dir: string;
  /** Passed to every child (PATH finds node, redis-server, postgres). */
  inherited: Record<string, string>;
  /** A new process group for a phase (a stopped group starts nothing more); Ctrl-C stops them all. */
  phase: () => ProcessGroup;
  signal: AbortSignal;
  log: (line: string) => void;
}

/** One ioredis connection for the bench's own reads (INFO, queue fills), closed after `run`. */
export async function withRedis<T>(url: string, run: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, { maxRetriesPerRequest: null });
  try {
    return await run(redis);
  } finally {
    redis.disconnect();
  }
}
