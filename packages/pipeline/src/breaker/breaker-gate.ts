import { randomBytes } from 'node:crypto';
import type { RedisClient } from '@notify/runtime';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { CHANNELS, type Channel } from '@notify/core';
import { SINGLE_PROVIDER_ROUTES, breakerNames, openGate, type ChannelGate, type GateTicket, type ProviderRoutes } from '../channel-gate';
import type { BreakerConfig } from './breaker-config';
import { createBreakerMetrics } from './breaker-metrics';
import { loadBreakerScripts, type StatesReading } from './breaker-scripts';
import { BREAKER_STATE_CODE, type BreakerState } from './breaker-state';
import { ordinaryTicket, probeTicket } from './breaker-tickets';
import { createFailOpenLog } from './fail-open-log';
import { OutcomeFold } from './outcome-fold';
import { createRedisGuard, FAILED } from './redis-guard';

export interface BreakerGateDeps {
  /**
   * A connection that fails fast (`createRedis(url, 'producer')`): with a worker connection
   * (`maxRetriesPerRequest: null`) commands queue during an outage and only the timeout
   * below ends them.
   */
  redis: RedisClient;
  config: BreakerConfig;
  registry: Registry;
  logger: Logger;
  /** Each channel's providers, in the order they are tried (default: one per channel, named after it). */
  routes?: ProviderRoutes;
}

/** Effective state by breaker name (one breaker per provider). */
export type BreakerStates = Record<string, BreakerState>;

export interface BreakerGate extends ChannelGate {
  /** Every provider's effective state, as `openChannels()` sees it (same local copy). */
  states(): Promise<BreakerStates>;
}

/** What this process knows of one breaker: its state, and (open) when it lets probes through. */
interface View {
  state: BreakerState;
  reopensAt: number;
}

/**
 * The channel gate backed by the shared breakers (one per provider, in Redis, on Redis's clock;
 * with the default routes, one provider per channel named after it). A call goes to the first
 * provider of its channel whose breaker lets it through; a channel is open only when all of
 * its providers are.
 *
 * Off the per-call path (`cacheMs` > 0): each process keeps the states it read, refreshed at
 * most every `cacheMs` (read-states-n, every breaker in one call) and on every transition its
 * own calls cause. A call on a channel that reads closed is allowed locally and one that reads
 * open is refused locally; only half-open goes to Redis (acquire-2), because probe leases are
 * shared. Outcomes of ordinary calls are folded locally (OutcomeFold) and reported as one
 * add-outcomes-2 call per provider per `cacheMs`, at once when this process alone may have
 * decided the verdict. Probes report at once (report-probe-2). The rule, the minimum volume
 * and the probe leases are the scripts', unchanged; what the fold adds is a delay of at most
 * `cacheMs` before other processes see a transition. `cacheMs` = 0: every call asks Redis.
 *
 * If Redis cannot answer (error, or no answer within `redisTimeoutMs`) the gate fails OPEN:
 * the call is allowed and the channel is treated as closed. A breaker exists to save calls to
 * a broken provider; refusing every channel because the breaker's own store is away would turn
 * a Redis blip into a total delivery outage (and the queues live in the same Redis, so the
 * pipeline is degraded anyway). Each such call is counted in
 * `notify_breaker_redis_errors_total{operation}` and logged (rate-limited); folded outcomes
 * that could not be reported are dropped.
 */
export function createBreakerGate(deps: BreakerGateDeps): BreakerGate {
  const { redis, config } = deps;
  const routes = deps.routes ?? SINGLE_PROVIDER_ROUTES;
  const names = breakerNames(routes);
  const channelOf = new Map(CHANNELS.flatMap((c) => routes[c].map((name) => [name, c] as const)));
  const logger = deps.logger.child({ component: 'breaker' });
  if (!config.enabled) {
    logger.info('circuit breakers disabled: every channel is always callable');
    const allClosed: BreakerStates = Object.fromEntries(names.map((n) => [n, 'closed' as const]));
    return { ...openGate(routes), states: async () => allClosed };
  }
  const scripts = loadBreakerScripts(redis, config, names);
  const fold = new OutcomeFold();
  const local = config.cacheMs > 0;
  const leasePrefix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  let leaseSeq = 0;
  const views = new Map<string, View>();
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;
  const metrics = createBreakerMetrics(deps.registry, async () => {
    await states();
  });
  const flusher = local ? setInterval(() => void flushAll(), config.cacheMs) : undefined;
  flusher?.unref();
  const guard = createRedisGuard(config.redisTimeoutMs, metrics.redisErrors, createFailOpenLog(logger));

  /** Effective state: open past its period is half-open (probes decide; acquire-2 records it). */
  const effective = (view: View | undefined): BreakerState =>
    view === undefined ? 'closed' : view.state === 'open' && performance.now() >= view.reopensAt ? 'half-open' : view.state;

  /**
   * Records what Redis said about a provider's breaker: local view, gauge, and, when this
   * process's call moved it (`from`), the transition count and the log line.
   */
  function observe(provider: string, state: BreakerState, from?: BreakerState, extra: { reopensInMs?: number; calls?: number; failures?: number } = {}): void {
    const before = views.get(provider);
    const channel = channelOf.get(provider) ?? provider;
    views.set(provider, { state, reopensAt: state === 'open' ? performance.now() + (extra.reopensInMs ?? 0) : 0 });
    metrics.state.set({ channel, provider }, BREAKER_STATE_CODE[state]);
    if (from !== undefined) {
      metrics.transitions.inc({ channel, provider, from, to: state });
      const fields = { channel, provider, from, to: state, ...(extra.calls ? { calls: extra.calls, failures: extra.failures } : {}) };
      if (state === 'open') logger.warn(fields, 'breaker opened: calls to this provider are refused');
      else logger.info(fields, 'breaker moved');
    } else if (before !== undefined && effective(before) !== state) {
      logger.info({ channel, provider, fromState: effective(before), toState: state }, 'breaker state observed');
    }
    if (state !== 'closed') fold.resetFailuresToTrip(provider);
  }

  function apply(reading: StatesReading): void {
    for (const name of names) {
      const r = reading.breakers[name];
      if (r) observe(name, r.state, undefined, { reopensInMs: r.reopensInMs });
    }
  }

  /** Reads the states again when the local copy is older than cacheMs (one read at a time). */
  async function refresh(): Promise<void> {
    if (performance.now() - readAt >= config.cacheMs) {
      reading ??= (async () => {
        try {
          const reply = await guard('read', () => scripts.readStates());
          // Failing open is remembered too, so a dead Redis costs one timeout per cacheMs, not per request.
          if (reply === FAILED) for (const name of names) views.set(name, { state: 'closed', reopensAt: 0 });
          else apply(reply);
          readAt = performance.now();
        } finally {
          reading = undefined;
        }
      })();
      await reading;
    }
  }

  async function states(): Promise<BreakerStates> {
    await refresh();
    return Object.fromEntries(names.map((n) => [n, effective(views.get(n))]));
  }

  /** Reports one provider's folded outcomes (add-outcomes-2) and takes in what it answered. */
  async function flush(provider: string): Promise<void> {
    const folded = fold.take(provider);
    if (!folded) return;
    const reply = await guard('release', () => scripts.addOutcomes({ breaker: provider, ...folded }));
    if (reply === FAILED) return;
    if (reply.code === 'opened') {
      observe(provider, 'open', 'closed', reply);
    } else if (reply.code === 'counted') {
      observe(provider, 'closed');
      fold.setFailuresToTrip(provider, reply.failuresToTrip);
    } else {
      // Not closed any more: keep what we knew of an open period, else take the state as told.
      if (!(reply.state === 'open' && views.get(provider)?.state === 'open')) observe(provider, reply.state);
    }
  }

  async function flushAll(): Promise<void> {
    await Promise.all(fold.breakers().map((b) => flush(b)));
  }

  const ordinary = (provider: string): GateTicket => ordinaryTicket(provider, fold, local, flush);

  function probe(provider: string, leaseId: string): GateTicket {
    return probeTicket(provider, async (kind) => {
      const reply = await guard('release', () => scripts.reportProbe({ breaker: provider, leaseId, kind }));
      if (reply === FAILED) return;
      if (reply.code === 'closed') observe(provider, 'closed', 'half-open');
      else if (reply.code === 'reopened') observe(provider, 'open', 'half-open', { reopensInMs: config.openMs });
    });
  }

  /** One provider's breaker: a ticket, or undefined when it refuses (open, or no probe slot free). */
  async function acquireProvider(provider: string): Promise<GateTicket | undefined> {
    if (local) {
      // The per-call path: no states object built, no read awaited while the local copy is fresh.
      if (performance.now() - readAt >= config.cacheMs) await refresh();
      const state = effective(views.get(provider));
      if (state === 'closed') return ordinary(provider);
      if (state === 'open') return undefined;
    }
    leaseSeq += 1;
    const leaseId = `${leasePrefix}-${leaseSeq}`;
    const reply = await guard('acquire', () => scripts.acquire({ breaker: provider, leaseId }));
    if (reply === FAILED) return ordinary(provider);
    switch (reply.code) {
      case 'allowed':
        observe(provider, 'closed');
        return ordinary(provider);
      case 'refused':
        observe(provider, 'open', undefined, reply);
        return undefined;
      case 'probe':
        observe(provider, 'half-open', reply.movedFromOpen ? 'open' : undefined);
        return probe(provider, leaseId);
      default:
        observe(provider, 'half-open', reply.movedFromOpen ? 'open' : undefined);
        return undefined;
    }
  }

  return {
    async openChannels() {
      const current = await states();
      return new Set(CHANNELS.filter((c) => routes[c].length > 0 && routes[c].every((p) => current[p] === 'open')));
    },
    /**
     * The channel's providers in order: the first whose breaker lets the call through makes it.
     * `only`: that provider alone (a reconciliation; a provider no longer configured is still asked);
     * `carries`: only the providers that can carry this notification's address.
     */
    async acquire(channel: Channel, only?: string, carries?: (provider: string) => boolean) {
      if (only !== undefined) return acquireProvider(only);
      for (const provider of routes[channel]) {
        if (carries !== undefined && !carries(provider)) continue;
        const ticket = await acquireProvider(provider);
        if (ticket) return ticket;
      }
      return undefined;
    },
    states,
    async close() {
      if (flusher) clearInterval(flusher);
      await flushAll();
      await reading?.catch(() => undefined);
    },
  };
}
