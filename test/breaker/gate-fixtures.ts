import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import pino, { type Logger } from 'pino';
import { Registry } from 'prom-client';
import { createBreakerGate, type BreakerConfig, type BreakerGate } from '@notify/pipeline';
import { createRedis, waitUntilReady } from '@notify/runtime';

/** Time scaled down so the tests run in seconds (the defaults are 10 s / 5 s / 10 s). */
export const FAST_BREAKER: BreakerConfig = {
  enabled: true,
  windowMs: 1_000,
  windowSlots: 10,
  minCalls: 10,
  failureRatio: 0.5,
  openMs: 300,
  probes: 2,
  probeSuccesses: 2,
  probeLeaseMs: 600,
  cacheMs: 0,
  redisTimeoutMs: 300,
};

/** Small lanes: several workers share 2 cores with the test itself. */
export const SMALL_LANES_ENV: Record<string, string> = {
  LANES: JSON.stringify(Object.fromEntries(['push', 'sms', 'email'].map((channel) => [channel, { urgent: { concurrency: 8 }, reminder: { concurrency: 4 } }]))),
  SHUTDOWN_GRACE_MS: '3000',
};

export interface TestGate {
  gate: BreakerGate;
  redis: Redis;
  registry: Registry;
  logs: { level: number; msg: string; [key: string]: unknown }[];
  close(): Promise<void>;
}

export function captureLogger(): { logger: Logger; logs: TestGate['logs'] } {
  const logs: TestGate['logs'] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      logs.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), logs };
}

/** A gate as one process would have it: its own fail-fast connection, registry and logger. */
export async function openGate(url: string, config: Partial<BreakerConfig> = {}): Promise<TestGate> {
  const redis = createRedis(url, 'producer');
  await waitUntilReady(redis);
  const registry = new Registry();
  const { logger, logs } = captureLogger();
  const gate = createBreakerGate({ redis, registry, logger, config: { ...FAST_BREAKER, ...config } });
  return {
    gate,
    redis,
    registry,
    logs,
    close: async () => {
      await gate.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** The value of a metric series from a registry (0 when absent). */
export async function metricValue(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return 0;
  const data = await metric.get();
  return data.values
    .filter((v) => Object.entries(labels).every(([k, value]) => String((v.labels as Record<string, unknown>)[k]) === value))
    .reduce((sum, v) => sum + v.value, 0);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
