import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { breakerKey, type Channel } from '@notify/core';
import { makeTraffic, ProcessGroup, sendEach, startProcessPlatform, type ProcessPlatform } from '@notify/platform-kit';
import { createRedis } from '@notify/runtime';
import type { ScenarioEnv } from '../config';
import { createControlClient } from '../control-client';
import { breakerTimes, watchBreaker } from './breaker-timeline';
import { readViews, summarize, waitUntilTerminal, type RunFigures } from './outcomes';
import { scaledAppEnv, type BreakerMode, type ScenarioOptions } from './scenario-args';

const SCENARIO_API_KEY = 'scenario-key-0000000000000001';
const SCENARIO_TENANT = 'scenario';

export interface RunResult {
  mode: BreakerMode;
  figures: RunFigures;
  duplicates: number;
  /** Intake answers other than 202 (they count as not delivered). */
  rejected: number;
  /** Records not terminal when the drain timed out. */
  unfinished: number;
  openedAfterMs?: number;
  closedAfterMs?: number;
  openPeriods: number;
  /** The breaker wrote its state to Redis: the apps read BREAKER_* (false = not wired). */
  breakerActive: boolean;
  downAtMs: number;
  upAtMs: number;
  loadMs: number;
  maxLagMs: number;
  logDir: string;
}

/** Where the outage sits in the load: push dies at 25 % of it and comes back at 75 %. */
export const OUTAGE = { from: 0.25, to: 0.75 } as const;

/**
 * One push-down run on a fresh platform: start it, send the load, kill push (connection
 * refused) and restore it on schedule, wait until every notification is terminal, read the
 * records and the ledger, stop every process (also on failure or abort).
 */
export async function runPushDown(
  options: ScenarioOptions,
  mode: BreakerMode,
  ctx: { env: ScenarioEnv; signal: AbortSignal; groups: ProcessGroup[]; progress?: (text: string) => void },
): Promise<RunResult> {
  const dir = mkdtempSync(join(ctx.env.inherited.TMPDIR ?? '/tmp', `notify-scenario-${mode}-`));
  const group = new ProcessGroup({ logDir: dir, maxChildren: 16 });
  ctx.groups.push(group);
  const channel: Channel = 'push';
  let redis: ReturnType<typeof createRedis> | undefined;
  let platform: ProcessPlatform | undefined;
  let watcher: ReturnType<typeof watchBreaker> | undefined;
  try {
    platform = await startProcessPlatform({
      group,
      inherited: ctx.env.inherited,
      redisServer: ctx.env.redisServer,
      dataDir: dir,
      workers: options.workers,
      apiKeys: `${SCENARIO_API_KEY}:${SCENARIO_TENANT}`,
      appEnv: scaledAppEnv(options, mode),
      entries: options.entries,
      signal: ctx.signal,
    });
    redis = createRedis(platform.redisUrl, 'producer');
    const control = createControlClient(platform.controlUrl, 5_000);
    const items = makeTraffic({ count: options.notifications, seed: options.seed, urgentShare: options.urgentShare, tag: 'pushdown' });
    const loadMs = (options.notifications * 1_000) / options.ratePerSecond;
    watcher = watchBreaker(redis, channel);
    ctx.progress?.(`platform up (${group.count} processes); sending ${options.notifications} notifications at ${options.ratePerSecond}/s`);

    let downAt = Number.NaN;
    let upAt = Number.NaN;
    let outage: Promise<void> = Promise.resolve();
    const killTimer = setTimeout(() => {
      downAt = Date.now();
      outage = control.apply(channel, { mode: 'down' }).then(() => undefined);
    }, loadMs * OUTAGE.from);
    const restoreTimer = setTimeout(() => {
      outage = outage
        .catch(() => undefined)
        .then(() => control.restore(channel))
        .then(() => {
          upAt = Date.now();
        });
    }, loadMs * OUTAGE.to);
    const loadStart = Date.now();
    let load;
    try {
      load = await sendEach(
        items.map((item) => item.request),
        {
          apiUrl: platform.apiUrl,
          apiKey: SCENARIO_API_KEY,
          ratePerSecond: options.ratePerSecond,
          maxInFlight: 64,
          signal: ctx.signal,
        },
      );
    } finally {
      clearTimeout(killTimer);
      clearTimeout(restoreTimer);
    }
    await outage;
    if (ctx.signal.aborted) throw new Error('interrupted');
    if (!Number.isFinite(upAt)) upAt = Date.now();
    if (group.unexpectedExit) throw new Error(group.unexpectedExit);

    const ids = load.answers.map((s) => s.id).filter((id): id is string => id !== undefined);
    // The last notifications may need every cascade step: 2 transient waits + reconciles, with slack.
    const drainMs = Math.max(20_000, 4 * Number(scaledAppEnv(options, mode).CASCADE_TRANSIENT_DELAY_MS));
    const unfinished = await waitUntilTerminal(redis, ids, drainMs, ctx.signal);
    // Give the breaker time to probe and close after the restore (bounded).
    const closeBy = Date.now() + 20 * Number(scaledAppEnv(options, mode).BREAKER_OPEN_MS) + 2_000;
    while (mode === 'on' && Date.now() < closeBy && !ctx.signal.aborted) {
      const times = breakerTimes(watcher.changes, downAt, upAt);
      if (times.closedAfterMs !== undefined || times.openedAfterMs === undefined) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const changes = await watcher.stop();
    const views = await readViews(redis, ids);
    const ledger = await control.ledger();
    const breakerActive = (await redis.exists(breakerKey(channel))) === 1;
    const times = breakerTimes(changes, downAt, upAt);
    return {
      mode,
      figures: summarize(views, items.length, (v) => v.plan[0] ?? 'push', { channel, downAt, upAt }),
      duplicates: ledger.duplicateKeys.length,
      rejected: load.answers.filter((s) => s.status !== 202).length,
      unfinished,
      ...(times.openedAfterMs !== undefined ? { openedAfterMs: times.openedAfterMs } : {}),
      ...(times.closedAfterMs !== undefined ? { closedAfterMs: times.closedAfterMs } : {}),
      openPeriods: times.opens,
      breakerActive,
      downAtMs: downAt - loadStart,
      upAtMs: upAt - loadStart,
      loadMs: Math.round(load.seconds * 1_000),
      maxLagMs: load.maxLagMs,
      logDir: dir,
    };
  } finally {
    await watcher?.stop();
    redis?.disconnect();
    // Workers first (they drain against a live Redis), then the api, the simulators, Redis.
    await (platform ? platform.stop() : group.stopAll());
    // Interrupted on purpose: nothing to diagnose. A failed run keeps its logs (their path is in the error).
    if (ctx.signal.aborted) rmSync(dir, { recursive: true, force: true });
  }
}
