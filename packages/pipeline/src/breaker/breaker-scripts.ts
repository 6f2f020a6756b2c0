import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { CHANNELS, breakerKey, breakerProbesKey, type Channel } from '@notify/core';
import { defineLuaCommands } from '../lua-commands';
import { decodeReply, text } from '../scripts/script-reply';
import type { BreakerConfig } from './breaker-config';
import { isBreakerState, type BreakerState, type RecordKind } from './breaker-state';

/**
 * The breakers' Lua scripts (lua/, `name-<numberOfKeys>.lua` with a KEYS/ARGV/Returns header,
 * shared fragments included at load time), each behind one typed method: a named argument
 * object in, a decoded union out (packages/pipeline/README.md, "Lua scripts").
 */
export const BREAKER_SCRIPTS = ['acquire-2', 'report-probe-2', 'add-outcomes-2', 'read-states-6'] as const;
export const BREAKER_LUA_DIR = join(__dirname, 'lua');
const SCRIPTS = BREAKER_SCRIPTS;
const DIR = BREAKER_LUA_DIR;

/** acquire-2.lua's return codes (its header lists the same). */
export const ACQUIRE_CODES = { refused: 0, allowed: 1, probe: 2, busy: 3 } as const;
/** report-probe-2.lua's return codes. */
export const REPORT_PROBE_CODES = { released: 0, closed: 1, reopened: 2, expired: 3 } as const;
/** add-outcomes-2.lua's return codes. */
export const ADD_OUTCOMES_CODES = { counted: 0, opened: 1, ignored: 2 } as const;
/** read-states-6.lua's return code. */
export const READ_STATES_CODES = { read: 0 } as const;

export type AcquireReply =
  | { code: 'refused'; reopensInMs: number }
  | { code: 'allowed' }
  /** `movedFromOpen`: this call moved the breaker open → half-open. */
  | { code: 'probe' | 'busy'; movedFromOpen: boolean };

export type ReportProbeReply = { code: keyof typeof REPORT_PROBE_CODES };

export type AddOutcomesReply =
  /** `failuresToTrip`: further failures alone that would open it (Infinity: none would). */
  | { code: 'counted'; calls: number; failures: number; failuresToTrip: number }
  | { code: 'opened'; calls: number; failures: number; reopensInMs: number }
  | { code: 'ignored'; state: BreakerState };

export interface ChannelReading {
  /** Effective state: open past its period reads as half-open. */
  state: BreakerState;
  /** Open only: ms until it lets probes through (else 0). */
  reopensInMs: number;
  /** Redis time (ms) the current state began; undefined if it never moved. */
  since: number | undefined;
  /** Closed only: the window's counted calls and failures. */
  windowCalls: number;
  windowFailures: number;
  /** Half-open only: probe leases not expired. */
  probesInFlight: number;
}

export interface StatesReading {
  /** Redis time of the read (ms). */
  now: number;
  channels: Record<Channel, ChannelReading>;
}

function state(raw: unknown): BreakerState {
  const value = text(raw);
  if (!isBreakerState(value)) throw new Error(`breaker script answered an unknown state '${value}'`);
  return value;
}

/** Reads every breaker (read-states-6): no writes, one round trip. */
export async function readBreakerStates(redis: Redis): Promise<StatesReading> {
  if (CHANNELS.length !== 3) throw new Error('read-states-6.lua reads exactly three channels');
  const command = defineLuaCommands(redis, DIR, 'notify_breaker', ['read-states-6'])('read-states-6');
  const reply = await command(...CHANNELS.map((c) => breakerKey(c)), ...CHANNELS.map((c) => breakerProbesKey(c)));
  const { detail } = decodeReply('read-states-6', READ_STATES_CODES, reply);
  const channels = {} as Record<Channel, ChannelReading>;
  CHANNELS.forEach((channel, i) => {
    const [s, reopens, since, calls, failures, probes] = detail.slice(1 + i * 6, 7 + i * 6);
    channels[channel] = {
      state: state(s),
      reopensInMs: Number(reopens),
      since: text(since) === '' ? undefined : Number(since),
      windowCalls: Number(calls),
      windowFailures: Number(failures),
      probesInFlight: Number(probes),
    };
  });
  return { now: Number(detail[0]), channels };
}

export interface BreakerScripts {
  acquire(a: { channel: Channel; leaseId: string }): Promise<AcquireReply>;
  reportProbe(a: { channel: Channel; leaseId: string; kind: RecordKind }): Promise<ReportProbeReply>;
  addOutcomes(a: { channel: Channel; calls: number; failures: number }): Promise<AddOutcomesReply>;
  readStates(): Promise<StatesReading>;
}

export function loadBreakerScripts(redis: Redis, config: BreakerConfig): BreakerScripts {
  const command = defineLuaCommands(redis, DIR, 'notify_breaker', SCRIPTS);
  const acquire = command('acquire-2');
  const reportProbe = command('report-probe-2');
  const addOutcomes = command('add-outcomes-2');
  return {
    async acquire({ channel, leaseId }) {
      const reply = await acquire(breakerKey(channel), breakerProbesKey(channel), leaseId, config.probes, config.probeLeaseMs);
      const { code, detail } = decodeReply('acquire-2', ACQUIRE_CODES, reply);
      switch (code) {
        case 'refused':
          return { code, reopensInMs: Number(detail[1]) };
        case 'allowed':
          return { code };
        default:
          return { code, movedFromOpen: text(detail[0]) === 'open' };
      }
    },
    async reportProbe({ channel, leaseId, kind }) {
      const reply = await reportProbe(breakerKey(channel), breakerProbesKey(channel), leaseId, kind, config.probeSuccesses, config.openMs, config.windowSlots);
      return { code: decodeReply('report-probe-2', REPORT_PROBE_CODES, reply).code };
    },
    async addOutcomes({ channel, calls, failures }) {
      const reply = await addOutcomes(
        breakerKey(channel),
        breakerProbesKey(channel),
        calls,
        failures,
        config.windowMs,
        config.windowSlots,
        config.minCalls,
        config.failureRatio,
        config.openMs,
      );
      const { code, detail } = decodeReply('add-outcomes-2', ADD_OUTCOMES_CODES, reply);
      switch (code) {
        case 'counted': {
          const more = Number(detail[2]);
          return { code, calls: Number(detail[0]), failures: Number(detail[1]), failuresToTrip: more < 0 ? Number.POSITIVE_INFINITY : more };
        }
        case 'opened':
          return { code, calls: Number(detail[0]), failures: Number(detail[1]), reopensInMs: Number(detail[2]) };
        default:
          return { code, state: state(detail[0]) };
      }
    },
    readStates: () => readBreakerStates(redis),
  };
}
