import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { CHANNELS, type AttemptOutcome, type Channel } from '@notify/core';
import { OPEN_GATE, type ChannelGate, type GateTicket } from '../channel-gate';
import type { BreakerConfig } from './breaker-config';
import { createBreakerMetrics } from './breaker-metrics';
import { ACQUIRE_VERDICT, loadBreakerScripts, type RecordReply } from './breaker-scripts';
import { BREAKER_STATE_CODE, recordKind, type BreakerState } from './breaker-state';
import { createFailOpenLog } from './fail-open-log';

export interface BreakerGateDeps {
  /**
   * A connection that fails fast (`createRedis(url, 'producer')`): with a worker connection
   * (`maxRetriesPerRequest: null`) commands queue during an outage and only the timeout
   * below ends them.
   */
  redis: Redis;
  config: BreakerConfig;
  registry: Registry;
  logger: Logger;
}

export type BreakerStates = Record<Channel, BreakerState>;

export interface BreakerGate extends ChannelGate {
  /** Every channel's effective state, as `openChannels()` sees it (same cache). */
  states(): Promise<BreakerStates>;
}

const FAILED = Symbol('breaker-redis-failed');
const ALL_CLOSED: BreakerStates = { push: 'closed', sms: 'closed', email: 'closed' };

/**
 * The channel gate backed by the shared breakers. Every decision is one Lua call on Redis's
 * clock (acquire-2, record-2); `openChannels()` reads all three states in one call and keeps
 * them `cacheMs`.
 *
 * If Redis cannot answer (error, or no answer within `redisTimeoutMs`) the gate fails OPEN:
 * the call is allowed and the channel is treated as closed. A breaker exists to save calls to
 * a broken provider; refusing every channel because the breaker's own store is away would turn
 * a Redis blip into a total delivery outage (and the queues live in the same Redis, so the
 * pipeline is degraded anyway). Each such call is counted in
 * `notify_breaker_redis_errors_total{operation}` and logged (rate-limited).
 */
export function createBreakerGate(deps: BreakerGateDeps): BreakerGate {
  const { redis, config } = deps;
  const logger = deps.logger.child({ component: 'breaker' });
  if (!config.enabled) {
    logger.info('circuit breakers disabled: every channel is always callable');
    return { ...OPEN_GATE, states: async () => ALL_CLOSED };
  }
  const scripts = loadBreakerScripts(redis, config);
  const failOpen = createFailOpenLog(logger);
  const leasePrefix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  let leaseSeq = 0;
  let snapshot: { at: number; states: BreakerStates } | undefined;
  let reading: Promise<BreakerStates> | undefined;
  const lastSeen = new Map<Channel, BreakerState>();
  const metrics = createBreakerMetrics(deps.registry, async () => { await states(); });

  async function guard<T>(operation: 'acquire' | 'release' | 'read', run: () => Promise<T>): Promise<T | typeof FAILED> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from Redis within ${config.redisTimeoutMs} ms`)), config.redisTimeoutMs);
    });
    try {
      const result = await Promise.race([run(), timeout]);
      failOpen.succeeded();
      return result;
    } catch (error) {
      metrics.redisErrors.inc({ operation });
      failOpen.failed(operation, error);
      return FAILED;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Records what Redis said about a channel: gauge, transition count, local snapshot, logs. */
  function observe(channel: Channel, state: BreakerState, from: BreakerState | undefined, counts?: RecordReply): void {
    metrics.state.set({ channel }, BREAKER_STATE_CODE[state]);
    if (from !== undefined) {
      metrics.transitions.inc({ channel, from, to: state });
      const fields = { channel, from, to: state, ...(counts && counts.calls > 0 ? { calls: counts.calls, failures: counts.failures } : {}) };
      if (state === 'open') logger.warn(fields, 'breaker opened: calls to this channel are refused');
      else logger.info(fields, 'breaker moved');
    } else if (lastSeen.has(channel) && lastSeen.get(channel) !== state) {
      logger.info({ channel, fromState: lastSeen.get(channel), toState: state }, 'breaker state observed');
    }
    lastSeen.set(channel, state);
    if (snapshot && snapshot.states[channel] !== state) snapshot = { ...snapshot, states: { ...snapshot.states, [channel]: state } };
  }

  async function states(): Promise<BreakerStates> {
    if (snapshot && performance.now() - snapshot.at < config.cacheMs) return snapshot.states;
    reading ??= (async () => {
      try {
        const reply = await guard('read', () => scripts.readStates());
        // Failing open is cached too, so a dead Redis costs one timeout per cacheMs, not per request.
        const read = reply === FAILED ? ALL_CLOSED : Object.fromEntries(CHANNELS.map((c) => [c, reply.states[c].state])) as BreakerStates;
        if (reply !== FAILED) for (const channel of CHANNELS) observe(channel, read[channel], undefined);
        snapshot = { at: performance.now(), states: read };
        return read;
      } finally {
        reading = undefined;
      }
    })();
    return reading;
  }

  function ticket(channel: Channel, leaseId: string): GateTicket {
    let released = false;
    return {
      async release(outcome: AttemptOutcome | 'not-called') {
        if (released) return;
        released = true;
        const kind = recordKind(outcome);
        // An ordinary call that proved nothing about the channel has nothing to report.
        if (leaseId === '' && (kind === 'neutral' || kind === 'not-called')) return;
        const reply = await guard('release', () => scripts.record(channel, kind, leaseId));
        if (reply !== FAILED) observe(channel, reply.state, reply.from, reply);
      },
    };
  }

  return {
    async openChannels() {
      const current = await states();
      return new Set(CHANNELS.filter((c) => current[c] === 'open'));
    },
    async acquire(channel) {
      leaseSeq += 1;
      const leaseId = `${leasePrefix}-${leaseSeq}`;
      const reply = await guard('acquire', () => scripts.acquire(channel, leaseId));
      if (reply === FAILED) return ticket(channel, '');
      observe(channel, reply.state, reply.from);
      if (reply.verdict === ACQUIRE_VERDICT.refused) return undefined;
      return ticket(channel, reply.verdict === ACQUIRE_VERDICT.probe ? leaseId : '');
    },
    states,
    async close() {
      // Nothing to stop: no timers outlive a call, and the connection belongs to the caller.
      await reading?.catch(() => undefined);
    },
  };
}
