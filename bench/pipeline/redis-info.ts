import type { Redis } from 'ioredis';

/**
 * What Redis itself says it spent: CPU (used_cpu_user + used_cpu_sys), commands by name
 * (INFO commandstats) and read events (INFO stats total_reads_processed: one per request batch
 * a client sends, so it counts round trips, pipelined or not). Deltas between two samples
 * divided by deliveries give the per-notification costs the bench prints.
 */
export interface RedisSample {
  cpuSeconds: number;
  reads: number;
  /** INFO memory used_memory: bytes Redis holds now. */
  usedMemory: number;
  commands: Map<string, number>;
}

export async function sampleRedis(redis: Redis): Promise<RedisSample> {
  const text = await redis.info('everything');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(text)?.[1] ?? 0);
  const commands = new Map<string, number>();
  for (const m of text.matchAll(/^cmdstat_([\w|]+):calls=(\d+)/gm)) commands.set(m[1] as string, Number(m[2]));
  return { cpuSeconds: field('used_cpu_user') + field('used_cpu_sys'), reads: field('total_reads_processed'), usedMemory: field('used_memory'), commands };
}

export interface RedisCost {
  cpuSeconds: number;
  /** EVAL/EVALSHA/FCALL calls: every BullMQ step and every one of ours is a script. */
  scriptCalls: number;
  roundTrips: number;
  commands: number;
  /** The commands that cost the most calls, name → calls (for the closing note). */
  top: [string, number][];
}

const SCRIPT_COMMANDS = new Set(['eval', 'evalsha', 'eval_ro', 'evalsha_ro', 'fcall', 'fcall_ro']);

export function redisCost(before: RedisSample, after: RedisSample): RedisCost {
  let scriptCalls = 0;
  let commands = 0;
  const deltas: [string, number][] = [];
  for (const [name, calls] of after.commands) {
    const d = calls - (before.commands.get(name) ?? 0);
    if (d <= 0) continue;
    commands += d;
    if (SCRIPT_COMMANDS.has(name)) scriptCalls += d;
    // INFO itself is the bench's own polling, not the platform's work.
    if (name !== 'info') deltas.push([name, d]);
  }
  return {
    cpuSeconds: after.cpuSeconds - before.cpuSeconds,
    scriptCalls,
    roundTrips: after.reads - before.reads,
    commands,
    top: deltas.sort((a, b) => b[1] - a[1]).slice(0, 6),
  };
}
