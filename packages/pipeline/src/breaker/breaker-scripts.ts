import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { CHANNELS, breakerKey, breakerProbesKey, type Channel } from '@notify/core';
import { defineLuaCommands } from '../lua-commands';
import type { BreakerConfig } from './breaker-config';
import { isBreakerState, type BreakerState } from './breaker-state';

/**
 * The breaker's Lua scripts (lua/, named `name-<numberOfKeys>.lua` with a KEYS/ARGV/returns
 * header), loaded once per connection through ioredis defineCommand (EVALSHA, falling back
 * to EVAL after a SCRIPT FLUSH or a failover).
 */
const SCRIPTS = ['acquire-2', 'record-2', 'read-states-3'] as const;

/** acquire-2's verdicts. */
export const ACQUIRE_VERDICT = { refused: 0, allowed: 1, probe: 2 } as const;
export type AcquireVerdict = (typeof ACQUIRE_VERDICT)[keyof typeof ACQUIRE_VERDICT];

/** What record-2 is told about a call. */
export type RecordKind = 'success' | 'failure' | 'neutral' | 'not-called';

export interface AcquireReply { verdict: AcquireVerdict; state: BreakerState; from: BreakerState | undefined }
export interface RecordReply { state: BreakerState; from: BreakerState | undefined; calls: number; failures: number }
export interface StatesReply { now: number; states: Record<Channel, { state: BreakerState; until: number }> }

export interface BreakerScripts {
  acquire(channel: Channel, leaseId: string): Promise<AcquireReply>;
  record(channel: Channel, kind: RecordKind, leaseId: string): Promise<RecordReply>;
  readStates(): Promise<StatesReply>;
}

function state(raw: unknown): BreakerState {
  const text = String(raw);
  if (!isBreakerState(text)) throw new Error(`breaker script answered an unknown state '${text}'`);
  return text;
}

const from = (raw: unknown): BreakerState | undefined => (raw === '' || raw === undefined ? undefined : state(raw));

export function loadBreakerScripts(redis: Redis, config: BreakerConfig): BreakerScripts {
  if (CHANNELS.length !== 3) throw new Error('read-states-3.lua reads exactly three channels');
  const command = defineLuaCommands(redis, join(__dirname, 'lua'), 'notify_breaker', SCRIPTS);
  const acquire = command('acquire-2');
  const record = command('record-2');
  const readStates = command('read-states-3');
  return {
    async acquire(channel, leaseId) {
      const reply = (await acquire(breakerKey(channel), breakerProbesKey(channel), leaseId, config.probes, config.probeLeaseMs)) as unknown[];
      return { verdict: Number(reply[0]) as AcquireVerdict, state: state(reply[1]), from: from(reply[2]) };
    },
    async record(channel, kind, leaseId) {
      const reply = (await record(
        breakerKey(channel), breakerProbesKey(channel), kind, leaseId, config.windowMs, config.windowSlots,
        config.minCalls, config.failureRatio, config.openMs, config.probeSuccesses,
      )) as unknown[];
      return { state: state(reply[0]), from: from(reply[1]), calls: Number(reply[2]), failures: Number(reply[3]) };
    },
    async readStates() {
      const reply = (await readStates(...CHANNELS.map((c) => breakerKey(c)))) as unknown[];
      const states = {} as StatesReply['states'];
      CHANNELS.forEach((channel, i) => {
        states[channel] = { state: state(reply[1 + i * 2]), until: Number(reply[2 + i * 2]) };
      });
      return { now: Number(reply[0]), states };
    },
  };
}
