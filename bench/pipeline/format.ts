import { RATE_COLUMNS, cpuText, f, rateLines } from './format-rates';
import type { Profile } from './profiles';
import type { RateResult } from './rate-result';
import type { IntakeResult, TwoHopResult } from './references';

export interface BenchReport {
  header: string;
  label: string;
  profile: Profile;
  rates: RateResult[];
  intake: IntakeResult[];
  twoHop: TwoHopResult | undefined;
  /** The bare full path, held at the same rates. */
  fullPath: RateResult[];
  /** Requests the webhook receiver answered (`--profile webhooks`). */
  webhookRequests: number | undefined;
}

export interface Ratios {
  /** Highest offered rate the platform sustained, and its deliveries/s over the window. */
  sustainedRate: number | null;
  sustainedDeliveredPerSecond: number | null;
  platformOverTwoHop: number | null;
  /** Per single-POST rate: platform api + Redis accepted/s over the bare prototype's. */
  singlePostOverBare: { offered: number; ratio: number | null }[];
  /** Highest offered rate the bare full path sustained, and the platform's over it. */
  fullPathSustainedRate: number | null;
  platformOverFullPathRate: number | null;
  /** Per rate held by both: every process's CPU but the bench's, per delivered notification, platform over reference. */
  cpuOverFullPath: { offered: number; platformUs: number | null; referenceUs: number | null; ratio: number | null }[];
}

// An overload hold is measured against the sustained rates, never one of them.
const highestSustained = (list: RateResult[]) => list.filter((x) => x.sustained && x.overloadOf === undefined).sort((a, b) => b.offered - a.offered)[0];
const over = (a: number | null | undefined, b: number | null | undefined) => (a != null && b != null && b > 0 ? a / b : null);

export function ratios(r: BenchReport): Ratios {
  const sustained = highestSustained(r.rates);
  const reference = highestSustained(r.fullPath);
  const bare = r.intake.filter((x) => x.what === 'bare prototype');
  const api = r.intake.filter((x) => x.what !== 'bare prototype');
  return {
    sustainedRate: sustained?.offered ?? null,
    sustainedDeliveredPerSecond: sustained?.deliveredPerSecond ?? null,
    platformOverTwoHop: sustained && r.twoHop ? sustained.deliveredPerSecond / r.twoHop.jobsPerSecond : null,
    singlePostOverBare: api.map((a) => ({
      offered: a.offered,
      ratio: over(a.acceptedPerSecond, bare.find((x) => x.offered === a.offered)?.acceptedPerSecond),
    })),
    fullPathSustainedRate: r.fullPath.length > 0 ? (reference?.offered ?? null) : null,
    platformOverFullPathRate: r.fullPath.length > 0 ? over(sustained?.offered ?? 0, reference?.offered) : null,
    cpuOverFullPath: r.rates.flatMap((p) => {
      const ref = r.fullPath.find((x) => x.offered === p.offered);
      if (!ref) return [];
      const platformUs = p.wholeRun?.systemCpuUsPerDelivered ?? null;
      const referenceUs = ref.wholeRun?.systemCpuUsPerDelivered ?? null;
      return [{ offered: p.offered, platformUs, referenceUs, ratio: over(platformUs, referenceUs) }];
    }),
  };
}

export function formatResults(r: BenchReport, json: boolean): string {
  const q = ratios(r);
  if (json) {
    const lines = [
      { kind: 'header', header: r.header, label: r.label, profile: r.profile },
      ...(r.twoHop ? [{ kind: 'reference', name: 'two-hop', label: r.label, ...r.twoHop }] : []),
      ...r.fullPath.map((x) => ({ kind: 'reference', name: 'full-path', label: r.label, ...x })),
      ...r.intake.map((i) => ({ kind: 'intake', label: r.label, ...i })),
      { kind: 'ratios', label: r.label, webhookRequests: r.webhookRequests, ...q },
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
  if (r.fullPath.length > 0) {
    out.push(`bare full path (bench/references/bare-full-path.ts), same rates, batch intake:`, RATE_COLUMNS);
    for (const x of r.fullPath) out.push(...rateLines(x, { history: false, webhooks: false }));
    out.push('');
  }
  out.push(`platform:`, RATE_COLUMNS);
  for (const x of r.rates) out.push(...rateLines(x, r.profile));
  if (r.webhookRequests !== undefined) out.push(`         webhook receiver: ${r.webhookRequests} requests answered 200 in the run (warm-up included)`);
  out.push(
    '',
    `sustained: ${q.sustainedRate === null ? 'no offered rate was sustained' : `${q.sustainedRate}/s offered, ${f(q.sustainedDeliveredPerSecond)} deliveries/s`}`,
  );
  if (r.fullPath.length > 0) {
    out.push(
      `bare full path sustained: ${q.fullPathSustainedRate === null ? 'no offered rate' : `${q.fullPathSustainedRate}/s offered`}; platform / bare full path, sustained rate: ${f(q.platformOverFullPathRate, 2)}`,
    );
    for (const c of q.cpuOverFullPath) {
      out.push(
        `at ${c.offered}/s, CPU of every process but the bench per delivered notification, platform / bare full path: ${f(c.platformUs)} / ${f(c.referenceUs)} µs = ${f(c.ratio, 2)}`,
      );
    }
  }
  if (r.twoHop) out.push(`platform sustained / bare two-hop ceiling: ${f(q.platformOverTwoHop, 2)} (goal >= 0.7)`);
  for (const s of q.singlePostOverBare) out.push(`single POST at ${s.offered}/s, platform api + Redis / bare prototype: ${f(s.ratio, 2)} (goal >= 0.9)`);
  return `${out.join('\n')}\n`;
}
