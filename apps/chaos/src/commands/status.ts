import type { Channel } from '@notify/core';
import { readBreakerSnapshots, type BreakerSnapshot, type ProviderRoutes } from '@notify/pipeline';
import { listProcesses, type ProcessInfo } from '@notify/runtime';
import type { ChannelStatus, ControlClient } from '../control-client';
import { EXIT } from '@notify/platform-kit';
import type { ChaosIo } from '../io';
import { describeChannel } from './channel-commands';
import { connectRedis, redactUrl } from './redis-connect';
import { readTariffMode } from './store-commands';

export interface StatusReport {
  channels?: Record<Channel, ChannelStatus>;
  tariffMode?: string;
  breakers?: BreakerSnapshot[];
  processes?: ProcessInfo[];
  errors: string[];
}

/** What is broken right now: each part is read on its own, so one unreachable part does not hide the others. */
export async function collectStatus(
  control: ControlClient,
  storesUrl: string,
  redisUrl: string,
  redisTimeoutMs: number,
  routes?: ProviderRoutes,
): Promise<StatusReport> {
  const report: StatusReport = { errors: [] };
  const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
  await Promise.all([
    control
      .channels()
      .then((c) => {
        report.channels = c;
      })
      .catch((e: unknown) => {
        report.errors.push(message(e));
      }),
    readTariffMode(storesUrl, redisTimeoutMs)
      .then((m) => {
        report.tariffMode = m;
      })
      .catch((e: unknown) => {
        report.errors.push(message(e));
      }),
    (async () => {
      const redis = await connectRedis(redisUrl, redisTimeoutMs);
      try {
        [report.breakers, report.processes] = await Promise.all([readBreakerSnapshots(redis, routes), listProcesses(redis)]);
      } finally {
        redis.disconnect();
      }
    })().catch((e: unknown) => {
      report.errors.push(message(e));
    }),
  ]);
  return report;
}

export async function status(
  control: ControlClient,
  storesUrl: string,
  redisUrl: string,
  redisTimeoutMs: number,
  json: boolean,
  io: ChaosIo,
  routes?: ProviderRoutes,
): Promise<number> {
  const report = await collectStatus(control, storesUrl, redisUrl, redisTimeoutMs, routes);
  if (json) {
    io.out(JSON.stringify(report, null, 2));
  } else {
    io.out(`channels (simulators at ${control.baseUrl}):`);
    if (report.channels) for (const [c, s] of Object.entries(report.channels)) io.out(`  ${describeChannel(c, s)}`);
    else io.out('  (unreachable)');
    io.out(
      `tracking stores at ${storesUrl}: tariff ${report.tariffMode === undefined ? '(unreachable)' : report.tariffMode === 'healthy' ? 'healthy' : report.tariffMode.toUpperCase()}`,
    );
    io.out(`breakers (Redis at ${redactUrl(redisUrl)}):`);
    if (report.breakers) for (const b of report.breakers) io.out(`  ${describeBreaker(b)}`);
    else io.out('  (unreachable)');
    io.out('registered processes:');
    if (report.processes?.length === 0) io.out('  (none)');
    for (const p of report.processes ?? []) {
      io.out(
        `  ${p.app.padEnd(7)} pid ${String(p.pid).padEnd(8)} host ${p.host}  roles ${p.roles.join(',') || '-'}  up ${((Date.now() - p.startedAt) / 1_000).toFixed(1)} s`,
      );
    }
  }
  for (const error of report.errors) io.err(`chaos: ${error}`);
  return report.errors.length === 0 ? EXIT.ok : EXIT.failed;
}

export function describeBreaker(b: BreakerSnapshot): string {
  const since = b.since === undefined ? '' : ` for ${((b.at - b.since) / 1_000).toFixed(1)} s`;
  switch (b.state) {
    case 'open':
      return `${label(b)} OPEN${since}; probes in ${b.reopensInMs} ms`;
    case 'half-open':
      return `${label(b)} HALF-OPEN${since}; ${b.probesInFlight} probe(s) in flight`;
    default:
      return `${label(b)} closed${since}; window: ${b.windowCalls} counted calls, ${b.windowFailures} failures`;
  }
}

/** A breaker's name: the channel, and the provider when it is not the channel's default simulator. */
function label(b: BreakerSnapshot): string {
  return (b.provider === b.channel ? b.channel : `${b.channel}/${b.provider}`).padEnd(6);
}
