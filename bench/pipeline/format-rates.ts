import type { RateResult } from './rate-result';

export const f = (v: number | null | undefined, d = 0) => (v === null || v === undefined ? 'n/a' : v.toFixed(d));
export const cpuText = (cpu: Record<string, number>) =>
  Object.entries(cpu)
    .sort()
    .map(([k, v]) => `${k} ${(v * 100).toFixed(0)}%`)
    .join(', ');

export const RATE_COLUMNS =
  'offered  mode    accepted/s  delivered/s  backlog end (s)  slope/s  drain s  Redis µs/del  scripts/n  rtt/n  intake p50/p99 ms  urgent 1st-try p50/p99 ms  verdict';

/** One held rate: its table line, then the window's CPU, the whole run's costs, the history's and the webhooks' figures. */
export function rateLines(x: RateResult, shows: { history: boolean; webhooks: boolean }): string[] {
  const out = [
    `${String(x.offered).padStart(7)}  ${x.mode.padEnd(6)}  ${f(x.acceptedPerSecond).padStart(10)}  ${f(x.deliveredPerSecond).padStart(11)}  ` +
      `${`${x.backlogEnd} (${f(x.backlogSeconds, 1)})`.padStart(15)}  ${f(x.backlogSlope).padStart(7)}  ${f(x.drainSeconds, 1).padStart(7)}  ` +
      `${f(x.redisCpuUsPerDelivery).padStart(12)}  ${f(x.scriptCallsPerNotification, 2).padStart(9)}  ${f(x.roundTripsPerNotification, 2).padStart(5)}  ` +
      `${`${f(x.intakeP50Ms, 1)}/${f(x.intakeP99Ms, 1)}`.padStart(17)}  ${`${f(x.urgentFirstTry.p50Ms)}/${f(x.urgentFirstTry.p99Ms)} (n=${x.urgentFirstTry.count})`.padStart(25)}  ` +
      `${x.sustained ? 'SUSTAINED' : 'not sustained'}: ${x.verdict}`,
    `         CPU over the window: ${cpuText(x.cpu)}; commands/notification ${f(x.commandsPerNotification, 1)} ` +
      `(${Object.entries(x.topCommandsPerNotification)
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(', ')})` +
      `${x.failedRequests + x.notSent > 0 ? `; failed requests ${x.failedRequests}, not sent ${x.notSent}` : ''}` +
      `${x.refusedPerSecond > 0 ? `; refused (lanes behind) ${f(x.refusedPerSecond)}/s, ${f((100 * x.refusedPerSecond) / x.offered, 1)} % of offered (urgent ${f(x.refusedUrgentPerSecond)}/s)` : ''}`,
  ];
  if (x.overloadOf !== undefined) out.push(overloadLine(x, x.overloadOf));
  if (shows.history) {
    out.push(
      `         history: archived ${f(x.archivedPerSecond)}/s over the window; history backlog at the end ${x.historyBacklogEnd} ` +
        `(${f(x.historyBacklogEnd / x.offered, 1)} s of traffic), slope ${f(x.historyBacklogSlope)}/s; archive queue empty ${f(x.historyDrainSeconds, 1)} s after the hold`,
    );
  }
  if (shows.webhooks) {
    out.push(
      `         webhooks: ${f(x.webhookDeliveriesPerSecond)} deliveries/s over the window (failed calls ${f(x.webhookFailuresPerSecond)}/s), ${f(x.webhooksPerDelivered, 2)} per delivered notification; every delivered one's call done ${f(x.webhookDrainSeconds, 1)} s after the hold`,
    );
  }
  const w = x.wholeRun;
  if (w) {
    out.push(
      `         whole hold + drain, per notification (${w.notifications}, ${w.delivered} delivered): Redis ${f(w.redisCpuUs)} µs CPU, ${f(w.scriptCalls, 2)} script calls, ` +
        `${f(w.roundTrips, 2)} round trips, ${f(w.commands, 1)} commands`,
      `         CPU µs per notification: ${Object.entries(w.cpuUs)
        .map(([name, us]) => `${name} ${f(us)}`)
        .join(', ')}; every process but the bench: ${f(w.systemCpuUsPerDelivered)} µs per delivered notification`,
      `         Redis used_memory after the drain${shows.history ? ' and the archival' : ''}: ${f(w.redisBytesPerTerminal)} B per terminal notification`,
    );
  }
  return out;
}

/** An overload hold against its goals: deliveries hold at capacity, what is accepted stays fast, the backlog drains. */
function overloadLine(x: RateResult, sustained: number): string {
  return (
    `         overload ${x.offered}/s = ${f(x.offered / sustained, 2)} x the highest sustained ${sustained}/s: delivered ${f(x.deliveredPerSecond)}/s = ` +
    `${f(x.deliveredPerSecond / sustained, 2)} of it (goal >= 0.95); refused ${f((100 * x.refusedPerSecond) / x.offered, 1)} % of offered; ` +
    `intake p99 of what was accepted ${f(x.intakeP99Ms)} ms (goal < 1000); urgent first-try p99 ${f(x.urgentFirstTry.p99Ms)} ms (goal < 500); ` +
    `drained ${f(x.drainSeconds, 1)} s after the hold (goal <= 30)`
  );
}
