import type { RateResult } from './hold-rate';
import type { IntakeResult, TwoHopResult } from './references';

export interface BenchReport {
  header: string;
  label: string;
  rates: RateResult[];
  intake: IntakeResult[];
  twoHop: TwoHopResult | undefined;
}

export interface Ratios {
  /** Highest offered rate the platform sustained, and its deliveries/s over the window. */
  sustainedRate: number | null;
  sustainedDeliveredPerSecond: number | null;
  platformOverTwoHop: number | null;
  /** Per single-POST rate: platform api + Redis accepted/s over the bare prototype's. */
  singlePostOverBare: { offered: number; ratio: number | null }[];
}

export function ratios(r: BenchReport): Ratios {
  const sustained = r.rates.filter((x) => x.sustained).sort((a, b) => b.offered - a.offered)[0];
  const bare = r.intake.filter((x) => x.what === 'bare prototype');
  const api = r.intake.filter((x) => x.what !== 'bare prototype');
  return {
    sustainedRate: sustained?.offered ?? null,
    sustainedDeliveredPerSecond: sustained?.deliveredPerSecond ?? null,
    platformOverTwoHop: sustained && r.twoHop ? sustained.deliveredPerSecond / r.twoHop.jobsPerSecond : null,
    singlePostOverBare: api.map((a) => {
      const b = bare.find((x) => x.offered === a.offered);
      return { offered: a.offered, ratio: b && b.acceptedPerSecond > 0 ? a.acceptedPerSecond / b.acceptedPerSecond : null };
    }),
  };
}

const f = (v: number | null | undefined, d = 0) => (v === null || v === undefined ? 'n/a' : v.toFixed(d));
const cpuText = (cpu: Record<string, number>) =>
  Object.entries(cpu)
    .sort()
    .map(([k, v]) => `${k} ${(v * 100).toFixed(0)}%`)
    .join(', ');

export function formatResults(r: BenchReport, json: boolean): string {
  const q = ratios(r);
  if (json) {
    const lines = [
      { kind: 'header', header: r.header, label: r.label },
      ...(r.twoHop ? [{ kind: 'reference', name: 'two-hop', label: r.label, ...r.twoHop }] : []),
      ...r.intake.map((i) => ({ kind: 'intake', label: r.label, ...i })),
      { kind: 'ratios', label: r.label, ...q },
    ];
    return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
  }
  const out: string[] = [r.header, ...(r.label ? [`app env: ${r.label}`] : []), ''];
  if (r.twoHop) {
    const t = r.twoHop;
    out.push(
      `bare two-hop BullMQ ceiling: ${f(t.jobsPerSecond)} jobs/s over ${f(t.windowSeconds, 1)} s; Redis ${f(t.redisCpuUsPerJob)} µs CPU, ` +
        `${f(t.scriptCallsPerJob, 2)} script calls, ${f(t.roundTripsPerJob, 2)} round trips per job; CPU ${cpuText(t.cpu)}`,
      '',
    );
  }
  if (r.intake.length > 0) {
    out.push('single POST, intake only      offered  accepted/s  p50 ms  p99 ms  Redis µs/acc  scripts/acc  rtt/acc  CPU');
    for (const i of r.intake) {
      out.push(
        `${i.what.padEnd(28)} ${String(i.offered).padStart(8)}  ${f(i.acceptedPerSecond).padStart(10)}  ${f(i.intakeP50Ms, 1).padStart(6)}  ` +
          `${f(i.intakeP99Ms, 1).padStart(6)}  ${f(i.redisCpuUsPerAccept).padStart(12)}  ${f(i.scriptCallsPerAccept, 2).padStart(11)}  ${f(i.roundTripsPerAccept, 2).padStart(7)}  ${cpuText(i.cpu)}` +
          `${i.failedRequests + i.notSent > 0 ? `  (failed ${i.failedRequests}, not sent ${i.notSent})` : ''}`,
      );
    }
    out.push('');
  }
  out.push(
    'offered  mode    accepted/s  delivered/s  backlog end (s)  slope/s  drain s  Redis µs/del  scripts/n  rtt/n  intake p50/p99 ms  urgent 1st-try p50/p99 ms  verdict',
  );
  for (const x of r.rates) {
    out.push(
      `${String(x.offered).padStart(7)}  ${x.mode.padEnd(6)}  ${f(x.acceptedPerSecond).padStart(10)}  ${f(x.deliveredPerSecond).padStart(11)}  ` +
        `${`${x.backlogEnd} (${f(x.backlogSeconds, 1)})`.padStart(15)}  ${f(x.backlogSlope).padStart(7)}  ${f(x.drainSeconds, 1).padStart(7)}  ` +
        `${f(x.redisCpuUsPerDelivery).padStart(12)}  ${f(x.scriptCallsPerNotification, 2).padStart(9)}  ${f(x.roundTripsPerNotification, 2).padStart(5)}  ` +
        `${`${f(x.intakeP50Ms, 1)}/${f(x.intakeP99Ms, 1)}`.padStart(17)}  ${`${f(x.urgentFirstTry.p50Ms)}/${f(x.urgentFirstTry.p99Ms)} (n=${x.urgentFirstTry.count})`.padStart(25)}  ` +
        `${x.sustained ? 'SUSTAINED' : 'not sustained'}: ${x.verdict}`,
    );
    out.push(
      `         CPU over the window: ${cpuText(x.cpu)}; commands/notification ${f(x.commandsPerNotification, 1)} ` +
        `(${Object.entries(x.topCommandsPerNotification)
          .map(([k, v]) => `${k} ${v.toFixed(2)}`)
          .join(', ')})` +
        `${x.failedRequests + x.notSent > 0 ? `; failed requests ${x.failedRequests}, not sent ${x.notSent}` : ''}`,
    );
    if (x.wholeRun) {
      const w = x.wholeRun;
      out.push(
        `         whole hold + drain, per notification (${w.notifications}): Redis ${f(w.redisCpuUs)} µs CPU, ${f(w.scriptCalls, 2)} script calls, ` +
          `${f(w.roundTrips, 2)} round trips, ${f(w.commands, 1)} commands; CPU µs per notification: ` +
          Object.entries(w.cpuUs)
            .map(([name, us]) => `${name} ${f(us)}`)
            .join(', '),
      );
    }
  }
  out.push(
    '',
    `sustained: ${q.sustainedRate === null ? 'no offered rate was sustained' : `${q.sustainedRate}/s offered, ${f(q.sustainedDeliveredPerSecond)} deliveries/s`}`,
  );
  out.push(`platform sustained / bare two-hop ceiling: ${f(q.platformOverTwoHop, 2)} (goal >= 0.7)`);
  for (const s of q.singlePostOverBare) out.push(`single POST at ${s.offered}/s, platform api + Redis / bare prototype: ${f(s.ratio, 2)} (goal >= 0.9)`);
  return `${out.join('\n')}\n`;
}
