import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { NotificationView } from '@notify/core';
import { makeTraffic, pollUntilTerminal, readRecordViews, runOpenLoop, startProcessPlatform, sumSamples, type ProcessGroup } from '@notify/platform-kit';

export const KEY_A = 'bench-key-tenant-a-0000000000001';
export const KEY_B = 'bench-key-tenant-b-0000000000001';

/** One platform run: tenant A's flood, with or without tenant B's steady traffic beside it. */
export interface TenantCase {
  label: string;
  fairShare: boolean;
  /** A's rate limit (notifications/s) and the rate it posts at; undefined: no limit, as fast as intake takes it. */
  aLimit: number | undefined;
  /** B sends urgent and reminders at this rate each; 0: A alone. */
  bRate: number;
  /** Intake backpressure at its defaults (refusing first the tenant that holds the backlog); absent: off, every notification is taken. */
  backpressure?: boolean;
}

export interface CaseResult {
  c: TenantCase;
  aAccepted: number;
  /** A's deliveries per second, from its first POST until its last notification was delivered. */
  aThroughput: number;
  aSeconds: number;
  bUrgent: NotificationView[];
  bReminders: NotificationView[];
  /** B's notifications intake refused (503 BACKLOG_FULL or 429). */
  bRefused: number;
}

export interface CaseEnv {
  group: ProcessGroup;
  inherited: Record<string, string>;
  dir: string;
  flood: number;
  workers: number;
  latencyMs: string;
  log: (line: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a platform (AOF Redis, history off, nothing failing at the providers so every
 * notification is one call), floods A, runs B beside it while A's backlog drains, and reads
 * B's records back. Intake backpressure is off unless the case asks for it: then A's flood is
 * refused once the lanes are behind, and what is measured is whether B's work still is not.
 */
export async function runCase(c: TenantCase, env: CaseEnv): Promise<CaseResult> {
  const tenantsFile = join(env.dir, `tenants-${c.label.replace(/\W+/g, '-')}.json`);
  const a = c.aLimit === undefined ? {} : { limits: { rate: { perSecond: c.aLimit, burst: Math.ceil(c.aLimit / 10) } } };
  writeFileSync(tenantsFile, JSON.stringify({ 'tenant-a': a, 'tenant-b': {} }));
  const platform = await startProcessPlatform({
    group: env.group,
    inherited: env.inherited,
    workers: env.workers,
    apiKeys: `${KEY_A}:tenant-a,${KEY_B}:tenant-b`,
    redisPersistence: 'aof',
    appEnv: {
      HISTORY_ENABLED: 'false',
      TENANTS_FILE: tenantsFile,
      LANE_FAIR_SHARE: String(c.fairShare),
      ...(c.backpressure ? {} : { INTAKE_BACKPRESSURE_WAIT_MS: '0' }),
    },
    simEnv: { SIM_LATENCY_MS: env.latencyMs, SIM_TRANSIENT_RATES: '0,0,0', SIM_PERMANENT_RATES: '0,0,0' },
    dataDir: join(env.dir, c.label.replace(/\W+/g, '-')),
  });
  const redis = new Redis(platform.redisUrl, { maxRetriesPerRequest: null });
  try {
    const metricsUrls = platform.workerUrls.map((u) => `${u}/metrics`);
    const deliveredOf = async (tenant: string) => {
      const texts = await Promise.all(metricsUrls.map(async (url) => (await fetch(url)).text()));
      return sumSamples(texts.join('\n'), 'notify_tenant_delivered_total', { tenant });
    };
    const tag = `${c.label.replace(/\W+/g, '')}-${Date.now()}`;
    const flood = makeTraffic({ seed: 41, urgentShare: 0, tag: `a-${tag}`, count: env.flood });
    const started = performance.now();
    const aPosting = runOpenLoop({
      apiUrl: platform.apiUrl,
      apiKey: KEY_A,
      ratePerSecond: c.aLimit ?? 100_000,
      count: env.flood,
      next: (i) => flood[i]!.request,
      mode: 'batch',
      maxInFlight: 4,
      whenFull: 'wait',
    });
    // B starts once A's backlog is there, and keeps going while it drains.
    await sleep(2_000);
    const bSeconds = Math.max(10, Math.round(env.flood / 2_500));
    const bItems = makeTraffic({ seed: 42, urgentShare: 0, tag: `b-${tag}`, count: Math.max(1, 2 * c.bRate * bSeconds) }).map((item, i) => ({
      ...item.request,
      priority: i % 2 === 0 ? 'urgent' : 'reminder',
    }));
    const bPosting =
      c.bRate > 0
        ? runOpenLoop({
            apiUrl: platform.apiUrl,
            apiKey: KEY_B,
            ratePerSecond: 2 * c.bRate,
            seconds: bSeconds,
            next: (i) => bItems[i % bItems.length]!,
            mode: 'single',
            maxInFlight: 32,
            whenFull: 'skip',
            keepAnswers: true,
          })
        : undefined;
    const aResult = await aPosting;
    env.log(`  ${c.label}: A accepted ${aResult.accepted} of ${env.flood} in ${aResult.seconds.toFixed(1)} s (rejected ${aResult.rejected})`);
    const deadline = performance.now() + 600_000;
    while ((await deliveredOf('tenant-a')) < aResult.accepted && performance.now() < deadline) await sleep(250);
    const aSeconds = (performance.now() - started) / 1_000;
    const bResult = await bPosting;
    const bIds = bResult?.answers.flatMap((x) => (x.id ? [x.id] : [])) ?? [];
    await pollUntilTerminal(redis, bIds, { timeoutMs: 120_000, intervalMs: 500 });
    const views = await readRecordViews(redis, bIds);
    const known = views.filter((v): v is NotificationView => v !== undefined);
    return {
      c,
      aAccepted: aResult.accepted,
      aThroughput: aResult.accepted / aSeconds,
      aSeconds,
      bUrgent: known.filter((v) => v.priority === 'urgent'),
      bReminders: known.filter((v) => v.priority === 'reminder'),
      bRefused: bResult?.rejected ?? 0,
    };
  } finally {
    redis.disconnect();
    await platform.stop();
  }
}
