import { join } from 'node:path';
import type { RedisClient } from '@notify/runtime';
import { CHANNELS, breakerKey, breakerProbesKey } from '@notify/core';
import { defineLuaCommands } from '../lua-commands';
import { decodeReply, text } from '../scripts/script-reply';
import type { BreakerConfig } from './breaker-config';
import { isBreakerState, type BreakerState, type RecordKind } from './breaker-state';

/**
 * The breakers' Lua scripts (lua/, `name-<numberOfKeys>.lua` with a KEYS/ARGV/Returns header,
 * shared fragments included at load time), each behind one typed method: a named argument
 * object in, a decoded union out (packages/pipeline/README.md, "Lua scripts").
 */
export const BREAKER_SCRIPTS = ['acquire-2', 'report-probe-2', 'add-outcomes-2', 'read-states-n'] as const;
export const BREAKER_LUA_DIR = join(__dirname, 'lua');
const SCRIPTS = BREAKER_SCRIPTS;
const DIR = BREAKER_LUA_DIR;

/** acquire-2.lua's return codes (its header lists the same). */
export const ACQUIRE_CODES = { refused: 0, allowed: 1, probe: 2, busy: 3 } as const;
/** report-probe-2.lua's return codes. */
export const REPORT_PROBE_CODES = { released: 0, closed: 1, reopened: 2, expired: 3 } as const;
/** add-outcomes-2.lua's return codes. */
export const ADD_OUTCOMES_CODES = { counted: 0, opened: 1, ignored: 2 } as const;
/** read-states-n.lua's return code. */
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

export interface BreakerReading {
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
  /** By breaker name: one breaker per provider (a provider named after its channel by default). */
  breakers: Record<string, BreakerReading>;
}

function state(raw: unknown): BreakerState {
  const value = text(raw);
  if (!isBreakerState(value)) throw new Error(`breaker script answered an unknown state '${value}'`);
  return value;
}

/**
 * Reads the named breakers (read-states-n): no writes, one round trip. `names` defaults to one
 * breaker per channel, the single-provider setup.
 */
export async function readBreakerStates(redis: RedisClient, names: readonly string[] = CHANNELS): Promise<StatesReading> {
  const command = defineLuaCommands(redis, DIR, 'notify_breaker', ['read-states-n'])('read-states-n');
  const reply = await command(names.length * 2, ...names.map((n) => breakerKey(n)), ...names.map((n) => breakerProbesKey(n)));
  const { detail } = decodeReply('read-states-n', READ_STATES_CODES, reply);
  const breakers: Record<string, BreakerReading> = {};
  names.forEach((name, i) => {
    const [s, reopens, since, calls, failures, probes] = detail.slice(1 + i * 6, 7 + i * 6);
    breakers[name] = {
      state: state(s),
      reopensInMs: Number(reopens),
      since: text(since) === '' ? undefined : Number(since),
      windowCalls: Number(calls),
      windowFailures: Number(failures),
      probesInFlight: Number(probes),
    };
  });
  return { now: Number(detail[0]), breakers };
}

export interface BreakerScripts {
  acquire(a: { breaker: string; leaseId: string }): Promise<AcquireReply>;
  reportProbe(a: { breaker: string; leaseId: string; kind: RecordKind }): Promise<ReportProbeReply>;
  addOutcomes(a: { breaker: string; calls: number; failures: number }): Promise<AddOutcomesReply>;
  readStates(): Promise<StatesReading>;
}

/** `names`: every breaker this process reads (one per provider). */
export function loadBreakerScripts(redis: RedisClient, config: BreakerConfig, names: readonly string[] = CHANNELS): BreakerScripts {
  const command = defineLuaCommands(redis, DIR, 'notify_breaker', SCRIPTS);
  const acquire = command('acquire-2');
  const reportProbe = command('report-probe-2');
  const addOutcomes = command('add-outcomes-2');
  return {
    async acquire({ breaker, leaseId }) {
      const reply = await acquire(breakerKey(breaker), breakerProbesKey(breaker), leaseId, config.probes, config.probeLeaseMs);
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
    async reportProbe({ breaker, leaseId, kind }) {
      const reply = await reportProbe(breakerKey(breaker), breakerProbesKey(breaker), leaseId, kind, config.probeSuccesses, config.openMs, config.windowSlots);
      return { code: decodeReply('report-probe-2', REPORT_PROBE_CODES, reply).code };
    },
    async addOutcomes({ breaker, calls, failures }) {
      const reply = await addOutcomes(
        breakerKey(breaker),
        breakerProbesKey(breaker),
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
    readStates: () => readBreakerStates(redis, names),
  };
}
