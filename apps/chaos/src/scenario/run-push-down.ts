import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { breakerKey, type Channel, type LedgerSummary } from '@notify/core';
import { SINGLE_PROVIDER_ROUTES, type ProviderRoutes } from '@notify/pipeline';
import {
  makeTraffic,
  ProcessGroup,
  sendEach,
  startProcessPlatform,
  startSimulatorsOnFreePorts,
  type ProcessPlatform,
  type SimulatorPorts,
} from '@notify/platform-kit';
import { createRedis, recordedPartitionCount } from '@notify/runtime';
import type { ScenarioEnv } from '../config';
import { createControlClient } from '../control-client';
import { breakerTimes, watchBreaker, type StateChange } from './breaker-timeline';
import { awaitBreakerClose, chaosCommand, scheduleOutage } from './outage';
import { failoverFigures, readViews, summarize, waitUntilTerminal, type FailoverFigures, type RunFigures } from './outcomes';
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
  /** With --push-providers 2: push-a killed, push-b carrying push. */
  failover?: FailoverResult;
}

/** Two push providers: what each did, where push went during the outage, and both ledgers. */
export interface FailoverResult {
  killed: string;
  figures: FailoverFigures;
  /** Each provider's breaker, timed from the kill and the restore. */
  breakers: Record<string, ReturnType<typeof breakerTimes>>;
  /** deliveredKeys summed over both simulators' ledgers (a key delivered in both counts twice). */
  ledgerDeliveredKeys: number;
  /** Keys delivered twice inside one ledger. */
  ledgerDuplicateKeys: number;
  /** Delivered notifications per their records. */
  delivered: number;
}

/** The two push providers of `--push-providers 2`, in the order they are tried. */
export const PUSH_PROVIDERS = ['push-a', 'push-b'] as const;
const PUSH_ROUTES: ProviderRoutes = { ...SINGLE_PROVIDER_ROUTES, push: PUSH_PROVIDERS };

/** A PROVIDERS_FILE naming push-a (on `a`) then push-b (on `b`), each with its simulators' control API. */
export function pushProvidersFile(a: SimulatorPorts, b: SimulatorPorts): string {
  const entry = (name: string, ports: SimulatorPorts) => ({
    name,
    kind: 'simulator',
    channel: 'push',
    url: `http://127.0.0.1:${ports.push}`,
    controlUrl: `http://127.0.0.1:${ports.control}`,
  });
  return `${JSON.stringify({ providers: [entry(PUSH_PROVIDERS[0], a), entry(PUSH_PROVIDERS[1], b)] }, null, 2)}\n`;
}

/** Duplicates across the ledgers: within one, plus a key delivered in two (more keys than delivered notifications). */
export function ledgerDuplicates(ledgers: readonly LedgerSummary[], delivered: number): number {
  const within = ledgers.reduce((n, l) => n + l.duplicateKeys.length, 0);
  const keys = ledgers.reduce((n, l) => n + l.deliveredKeys, 0);
  return within + Math.max(0, keys - delivered);
}

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
  let watchers: ReturnType<typeof watchBreaker>[] = [];
  const two = options.pushProviders === 2;
  const providers: readonly string[] = two ? PUSH_PROVIDERS : [channel];
  try {
    // Two push providers: the platform's simulators are push-a, a second simulators process is
    // push-b, started first; the PROVIDERS_FILE names both once the platform's are up.
    let portsB: SimulatorPorts | undefined;
    const fileEnv: Record<string, string> = {};
    if (two) {
      fileEnv.PROVIDERS_FILE = join(dir, 'providers.json');
      ({ ports: portsB } = await startSimulatorsOnFreePorts(group, {
        name: 'simulators-b',
        entry: options.entries.simulators,
        env: { ...ctx.env.inherited, NODE_ENV: 'development', LOG_LEVEL: 'warn' },
        signal: ctx.signal,
      }));
    }
    const b = portsB;
    const controlB = b ? createControlClient(`http://127.0.0.1:${b.control}`, 5_000) : undefined;
    platform = await startProcessPlatform({
      group,
      inherited: ctx.env.inherited,
      redisServer: ctx.env.redisServer,
      dataDir: dir,
      workers: options.workers,
      apiKeys: `${SCENARIO_API_KEY}:${SCENARIO_TENANT}`,
      // The scenario sends no tracking query: the api's warm-up of that path would only delay its start.
      appEnv: { ...scaledAppEnv(options, mode), TRACKING_WARMUP_QUERIES: '0', ...fileEnv },
      entries: options.entries,
      signal: ctx.signal,
      ...(b
        ? {
            appEnvFor: (a: SimulatorPorts) => {
              writeFileSync(fileEnv.PROVIDERS_FILE as string, pushProvidersFile(a, b));
              return {};
            },
          }
        : {}),
    });
    redis = createRedis(platform.redisUrl, 'producer');
    const control = createControlClient(platform.controlUrl, 5_000);
    const items = makeTraffic({ count: options.notifications, seed: options.seed, urgentShare: options.urgentShare, tag: 'pushdown' });
    const loadMs = (options.notifications * 1_000) / options.ratePerSecond;
    const r = redis;
    watchers = providers.map((p) => watchBreaker(r, p, two ? PUSH_ROUTES : SINGLE_PROVIDER_ROUTES));
    const killed = providers[0]!;
    const cliEnv = { ...fileEnv, SIM_CONTROL_URL: platform.controlUrl };
    ctx.progress?.(`platform up (${group.count} processes); sending ${options.notifications} notifications at ${options.ratePerSecond}/s`);

    let killError: Error | undefined;
    const outage = scheduleOutage(
      loadMs,
      () =>
        two
          ? chaosCommand(['kill-provider', killed], cliEnv).catch((error: unknown) => {
              killError = error instanceof Error ? error : new Error(String(error));
            })
          : control.apply(channel, { mode: 'down' }).then(() => undefined),
      async () => {
        if (two) await chaosCommand(['restore-provider', killed], cliEnv);
        else await control.restore(channel);
      },
    );
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
      outage.cancel();
    }
    await outage.settled();
    if (ctx.signal.aborted) throw new Error('interrupted');
    const downAt = outage.downAt;
    const upAt = Number.isFinite(outage.upAt) ? outage.upAt : Date.now();
    if (group.unexpectedExit) throw new Error(group.unexpectedExit);
    // Two providers: a kill through the CLI that failed fails the run (its error names the command).
    if (killError !== undefined) throw killError;

    const ids = load.answers.map((s) => s.id).filter((id): id is string => id !== undefined);
    // The last notifications may need every cascade step: 2 transient waits + reconciles, with slack.
    const drainMs = Math.max(20_000, 4 * Number(scaledAppEnv(options, mode).CASCADE_TRANSIENT_DELAY_MS));
    // Records live in their id's partition: PARTITIONS may come from the caller's environment.
    const partitions = await recordedPartitionCount(redis);
    const unfinished = await waitUntilTerminal(redis, ids, partitions, drainMs, ctx.signal);
    if (mode === 'on') await awaitBreakerClose(watchers[0]!.changes, { downAt, upAt }, Number(scaledAppEnv(options, mode).BREAKER_OPEN_MS), ctx.signal);
    const timelines: StateChange[][] = [];
    for (const w of watchers) timelines.push(await w.stop());
    const views = await readViews(redis, ids, partitions);
    const ledger = await control.ledger();
    const breakerActive = (await redis.exists(breakerKey(killed))) === 1;
    const times = breakerTimes(timelines[0] ?? [], downAt, upAt);
    const preferredOf = (v: { plan: readonly Channel[] }) => v.plan[0] ?? 'push';
    const outageWindow = { channel, ...(two ? { provider: killed } : {}), downAt, upAt };
    const figures = summarize(views, items.length, preferredOf, outageWindow);
    let failover: FailoverResult | undefined;
    let duplicates = ledger.duplicateKeys.length;
    if (two && controlB) {
      const ledgers = [ledger, await controlB.ledger()];
      duplicates = ledgerDuplicates(ledgers, figures.delivered);
      failover = {
        killed,
        figures: failoverFigures(views, providers, preferredOf, outageWindow),
        breakers: Object.fromEntries(providers.map((p, i) => [p, breakerTimes(timelines[i] ?? [], downAt, upAt)])),
        ledgerDeliveredKeys: ledgers.reduce((n, l) => n + l.deliveredKeys, 0),
        ledgerDuplicateKeys: ledgers.reduce((n, l) => n + l.duplicateKeys.length, 0),
        delivered: figures.delivered,
      };
    }
    return {
      mode,
      figures,
      duplicates,
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
      ...(failover ? { failover } : {}),
    };
  } finally {
    for (const w of watchers) await w.stop();
    redis?.disconnect();
    // Workers first (they drain against a live Redis), then the api, the simulators, Redis.
    await (platform ? platform.stop() : group.stopAll());
    // Interrupted on purpose: nothing to diagnose. A failed run keeps its logs (their path is in the error).
    if (ctx.signal.aborted) rmSync(dir, { recursive: true, force: true });
  }
}
