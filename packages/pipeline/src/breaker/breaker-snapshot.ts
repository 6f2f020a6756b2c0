import type { Redis } from 'ioredis';
import { CHANNELS, breakerKey, breakerProbesKey, type Channel } from '@notify/core';
import { isBreakerState, type BreakerState } from './breaker-state';

/** One channel's breaker as an operator sees it (chaos CLI `status`, scenario timelines). */
export interface BreakerSnapshot {
  channel: Channel;
  /** Effective state: an open breaker past its open period reads as half-open. */
  state: BreakerState;
  /** When the current state began (Redis clock, ms); undefined if it never moved. */
  since?: number;
  /** Open only: ms until it lets probes through. */
  reopensInMs?: number;
  /** Half-open only: probe leases not expired. */
  probesInFlight: number;
  /** Closed only: counted calls and failures in the current window. */
  windowCalls: number;
  windowFailures: number;
  /** Redis time of the read (ms). */
  at: number;
}

/** Reads every breaker without changing any (a pipeline of plain reads: no Lua, no writes). */
export async function readBreakerSnapshots(redis: Redis): Promise<BreakerSnapshot[]> {
  const pipeline = redis.pipeline().time();
  for (const channel of CHANNELS) pipeline.hgetall(breakerKey(channel)).zrangebyscore(breakerProbesKey(channel), '-inf', '+inf', 'WITHSCORES');
  const replies = (await pipeline.exec()) ?? [];
  for (const [error] of replies) if (error) throw error;
  const [seconds, micros] = replies[0]?.[1] as [string, string];
  const now = Number(seconds) * 1_000 + Math.floor(Number(micros) / 1_000);
  return CHANNELS.map((channel, i) => {
    const fields = (replies[1 + i * 2]?.[1] ?? {}) as Record<string, string>;
    const leases = (replies[2 + i * 2]?.[1] ?? []) as string[];
    let state: BreakerState = fields.state !== undefined && isBreakerState(fields.state) ? fields.state : 'closed';
    const until = Number(fields.until ?? 0);
    let since = fields.since === undefined ? undefined : Number(fields.since);
    // Open past its period is half-open since the period ended (the next acquire records it).
    if (state === 'open' && now >= until) {
      state = 'half-open';
      since = until;
    }
    const probesInFlight = leases.filter((_v, k) => k % 2 === 1).filter((score) => Number(score) > now).length;
    const { calls, failures } = state === 'closed' ? windowCounts(fields, now) : { calls: 0, failures: 0 };
    return {
      channel, state, at: now,
      ...(since !== undefined ? { since } : {}),
      ...(state === 'open' ? { reopensInMs: until - now } : {}),
      probesInFlight: state === 'half-open' ? probesInFlight : 0,
      windowCalls: calls,
      windowFailures: failures,
    };
  });
}

/** Sums the live window slots (record-2.lua's layout: w<i> = '<slot number>:<calls>:<failures>'). */
function windowCounts(fields: Record<string, string>, now: number): { calls: number; failures: number } {
  const windowMs = Number(fields.win ?? 0);
  const slots = Number(fields.slots ?? 0);
  if (!(windowMs > 0 && slots > 0)) return { calls: 0, failures: 0 };
  const current = Math.floor(now / Math.max(1, Math.floor(windowMs / slots)));
  let calls = 0;
  let failures = 0;
  for (let i = 0; i < slots; i += 1) {
    const [slot, c, f] = (fields[`w${i}`] ?? '').split(':').map(Number);
    if (slot !== undefined && slot > current - slots && c !== undefined && f !== undefined) {
      calls += c;
      failures += f;
    }
  }
  return { calls, failures };
}
