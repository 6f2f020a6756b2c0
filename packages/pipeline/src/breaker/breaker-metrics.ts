import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * The breakers' metrics. Every process reports the state it last observed (read at scrape
 * time, so all processes agree) and counts the transitions its own calls caused: summed over
 * processes, `notify_breaker_transitions_total` is the number of transitions. Skips for an
 * open breaker are counted by the pipeline in `notify_channel_skips_total{reason="breaker-open"}`.
 */
export function createBreakerMetrics(registry: Registry, collect?: () => Promise<void>) {
  const registers = [registry];
  const state =
    existing<Gauge<'channel' | 'provider'>>(registry, 'notify_breaker_state') ??
    new Gauge({
      name: 'notify_breaker_state',
      help: 'Circuit breaker state per provider (and its channel), shared through Redis: 0 closed, 1 half-open, 2 open.',
      labelNames: ['channel', 'provider'] as const,
      registers,
      ...(collect ? { collect } : {}),
    });
  const transitions =
    existing<Counter<'channel' | 'provider' | 'from' | 'to'>>(registry, 'notify_breaker_transitions_total') ??
    new Counter({
      name: 'notify_breaker_transitions_total',
      help: 'Circuit breaker transitions caused by this process, by channel, provider, from and to state.',
      labelNames: ['channel', 'provider', 'from', 'to'] as const,
      registers,
    });
  const redisErrors =
    existing<Counter<'operation'>>(registry, 'notify_breaker_redis_errors_total') ??
    new Counter({
      name: 'notify_breaker_redis_errors_total',
      help: 'Breaker calls to Redis that failed or timed out; each one failed OPEN (the channel was treated as closed).',
      labelNames: ['operation'] as const,
      registers,
    });
  return { state, transitions, redisErrors };
}

export type BreakerMetrics = ReturnType<typeof createBreakerMetrics>;

/** A second gate on the same registry (tests, one process with api + worker) reuses the metrics. */
function existing<T>(registry: Registry, name: string): T | undefined {
  return registry.getSingleMetric(name) as T | undefined;
}
