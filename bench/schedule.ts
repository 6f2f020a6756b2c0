/**
 * `npm run bench:schedule`: `--count` notifications (reminders, default 200,000) scheduled for
 * the same minute (sendAt spread evenly over `--window-seconds`), posted in batches ahead of it,
 * against the platform as processes (api, workers, simulators, one redis-server without
 * persistence, history off). Prints the Redis bytes each scheduled notification holds while it
 * waits (used_memory delta over the count), the release lateness p50/p99 (releasedAt - sendAt,
 * Redis clock), how many were released or called early (must be 0), the rate the lanes drained
 * the burst at, and the first-try p99 of urgent notifications offered during the release, over
 * all and per `--urgent-bucket-seconds` of their acceptance time (where the tail was); urgent
 * traffic flows `--urgent-lead-seconds` before the window opens too, unmeasured. Then,
 * on a second platform with the history on, the Redis bytes per parked notification
 * (`--parked-count` reminders two days ahead, parked in PostgreSQL; 0 skips it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { dueIndexKey } from '@notify/core';
import { ProcessGroup, makeTraffic, pollUntilTerminal, readRecordViews, runOpenLoop, startProcessPlatform } from '@notify/platform-kit';
import { sampleUrgentFirstTry } from './pipeline/urgent-first-try';
import { measureParkedBytes } from './schedule/parked-bytes';
import { releaseFigures } from './schedule/release-figures';

const TENANT = 'bench';
const API_KEY = 'bench-key-000000000000000000001';
const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '200000' },
    'window-seconds': { type: 'string', default: '60' },
    'urgent-rate': { type: 'string', default: '100' },
    workers: { type: 'string', default: '2' },
    'provider-latency-ms': { type: 'string', default: '20' },
    'drain-seconds': { type: 'string', default: '600' },
    'parked-count': { type: 'string', default: '100000' },
    'urgent-bucket-seconds': { type: 'string', default: '15' },
    'urgent-lead-seconds': { type: 'string', default: '10' },
  },
  strict: true,
});

const ms = (v: number | undefined) => (v === undefined ? 'n/a' : `${Math.round(v)} ms`);

async function main(): Promise<void> {
  const count = Number(values.count);
  const windowSeconds = Number(values['window-seconds']);
  const urgentRate = Number(values['urgent-rate']);
  const bucketSeconds = Number(values['urgent-bucket-seconds']);
  if (!(Number.isInteger(bucketSeconds) && bucketSeconds >= 1 && bucketSeconds <= 600))
    throw new Error('--urgent-bucket-seconds must be an integer in [1, 600]');
  const leadSeconds = Number(values['urgent-lead-seconds']);
  if (!(leadSeconds >= 0 && leadSeconds <= 600)) throw new Error('--urgent-lead-seconds must be in [0, 600]');
  const dir = mkdtempSync(join(tmpdir(), 'notify-bench-schedule-'));
  const group = new ProcessGroup({ logDir: dir });
  const inherited = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const loadAtStart = loadavg();
  try {
    const platform = await startProcessPlatform({
      group,
      inherited,
      workers: Number(values.workers),
      apiKeys: `${API_KEY}:${TENANT}`,
      appEnv: { HISTORY_ENABLED: 'false', CASCADE_TRANSIENT_DELAY_MS: '300', CASCADE_RECONCILE_DELAY_MS: '300', CASCADE_UNAVAILABLE_RETRY_MS: '300' },
      simEnv: { SIM_LATENCY_MS: values['provider-latency-ms'] },
      dataDir: join(dir, 'platform'),
    });
    const redis = new Redis(platform.redisUrl, { maxRetriesPerRequest: null });
    try {
      const used = async () => Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))?.[1] ?? 0);
      // Posting runs at ~2,000/s on 2 cores: the window opens after it, with a margin.
      const opens = Date.now() + (count / 1_500 + 15) * 1_000;
      const items = makeTraffic({ seed: 26, urgentShare: 0, tag: `sched-${Date.now()}`, count });
      const bodies = items.map((item, i) => ({ ...item.request, sendAt: new Date(opens + Math.floor((i / count) * windowSeconds * 1_000)).toISOString() }));
      const before = await used();
      log(`posting ${count} scheduled notifications for a ${windowSeconds} s window opening in ${Math.round((opens - Date.now()) / 1000)} s`);
      const posted = await runOpenLoop({
        apiUrl: platform.apiUrl,
        apiKey: API_KEY,
        ratePerSecond: 100_000,
        count,
        next: (i) => bodies[i] as object,
        mode: 'batch',
        maxInFlight: 4,
        whenFull: 'wait',
        keepAnswers: true,
      });
      const ids = posted.answers.flatMap((a) => (a.id ? [a.id] : []));
      const bytesPerScheduled = ((await used()) - before) / ids.length;
      const stillWaiting = await redis.zcard(dueIndexKey());
      log(`accepted ${ids.length} (${stillWaiting} waiting) in ${posted.seconds.toFixed(1)} s; ${Math.round(bytesPerScheduled)} B of Redis each`);
      if (Date.now() > opens) log('warning: posting ran into the window; some were due before they were accepted');

      // Urgent traffic flows before the window opens, as it does on a platform in use (a cold urgent path is
      // --urgent-lead-seconds 0); what is offered from the opening, through the release and a while after, is measured.
      const offerUrgent = (seconds: number, tag: string) => {
        const urgentItems = makeTraffic({ seed: 27, urgentShare: 1, tag: `${tag}-${Date.now()}`, count: Math.max(1, Math.ceil(urgentRate * seconds)) });
        return runOpenLoop({
          apiUrl: platform.apiUrl,
          apiKey: API_KEY,
          ratePerSecond: urgentRate,
          seconds,
          next: (i) => urgentItems[i % urgentItems.length]!.request,
          mode: 'single',
          maxInFlight: 64,
          whenFull: 'skip',
          keepAnswers: true,
        });
      };
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, opens - leadSeconds * 1_000 - Date.now())));
      if (leadSeconds > 0) {
        log(`urgent at ${urgentRate}/s for ${leadSeconds} s before the window opens (not measured)`);
        await offerUrgent(leadSeconds, 'urgent-lead');
      }
      log(`window open: offering urgent at ${urgentRate}/s for ${windowSeconds + 30} s`);
      const urgent = await offerUrgent(windowSeconds + 30, 'urgent');
      const urgentIds = urgent.answers.flatMap((a) => (a.id ? [a.id] : []));
      log('waiting for every scheduled notification to end');
      const { open } = await pollUntilTerminal(redis, ids, { timeoutMs: Number(values['drain-seconds']) * 1000, intervalMs: 1_000 });
      await pollUntilTerminal(redis, urgentIds, { timeoutMs: 60_000, intervalMs: 500 });
      const figures = releaseFigures(await readRecordViews(redis, ids));
      const firstTry = await sampleUrgentFirstTry(
        { apiUrl: platform.apiUrl, apiKey: API_KEY, tenant: TENANT, redis, metricsUrls: [] },
        urgentIds,
        urgentIds.length,
        bucketSeconds,
      );
      const cpu = cpus();
      const lines = [
        `bench:schedule on ${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}, Node ${process.version}; api + ${values.workers} workers + simulators (${values['provider-latency-ms']} ms) + redis-server (no persistence), history off; load ${loadAtStart.map((l) => l.toFixed(2)).join('/')} -> ${loadavg()
          .map((l) => l.toFixed(2))
          .join('/')}`,
        `scheduled ${ids.length} reminders over a ${windowSeconds} s window; Redis while waiting: ${Math.round(bytesPerScheduled)} B per scheduled notification (used_memory delta / count; full record in Redis)`,
        `release lateness (releasedAt - sendAt): p50 ${ms(figures.latenessP50)}, p99 ${ms(figures.latenessP99)}, max ${ms(figures.latenessMax)}; early (released or called before sendAt): ${figures.early}`,
        `delivered ${figures.delivered}/${ids.length} (${open} still open at the end); sendAt -> delivered p50 ${ms(figures.deliveryP50)}, p99 ${ms(figures.deliveryP99)}; lanes drained the burst at ${figures.drainRate?.toFixed(0) ?? 'n/a'}/s`,
        `urgent offered during the release (after ${leadSeconds} s of urgent traffic unmeasured): ${urgent.offered} at ${urgentRate}/s (${urgent.accepted} accepted, ${urgent.duplicates} duplicates, ${urgent.rejected} refused, ${urgent.failed} failed, ${urgent.skippedForBackpressure} skipped); first try ${((firstTry.firstTryShare ?? 0) * 100).toFixed(1)} %, p50 ${ms(firstTry.p50Ms ?? undefined)}, p99 ${ms(firstTry.p99Ms ?? undefined)} (sample ${firstTry.count})`,
        `urgent first-try p99 by acceptance time (s into the offer: p99 of n): ${firstTry.byAcceptance.map((b) => `${b.fromSeconds}: ${ms(b.p99Ms ?? undefined)} of ${b.count}`).join(', ')}`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
    } finally {
      redis.disconnect();
      await platform.stop();
    }
    await group.stopAll();
    const parkedCount = Number(values['parked-count']);
    if (parkedCount > 0) {
      const { parked, bytesPerParked } = await measureParkedBytes({
        count: parkedCount,
        aheadSeconds: 2 * 86_400,
        inherited,
        dataDir: join(dir, 'parked'),
        log,
      });
      process.stdout.write(
        `parked ${parked} reminders due in 2 days (history on): Redis ${Math.round(bytesPerParked)} B per parked notification (used_memory delta / count; stub in Redis, body in PostgreSQL)\n`,
      );
    }
  } finally {
    await group.stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:schedule failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
