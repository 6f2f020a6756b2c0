import type { RunResult } from './run-push-down';
import type { ScenarioOptions } from './scenario-args';
import { CHANNELS } from '@notify/core';
import { BI_ASSUMPTIONS } from '@notify/models';
import type { LatencyStats } from '@notify/platform-kit';

/**
 * The seed's published model (brief section 1, 104,167 notifications = one peak minute,
 * seed 20260730; push down for the whole minute). Its latency is pauses x 30 s, in seconds.
 */
export const SEED_ROWS = [
  { run: 'seed model: cascade, healthy', notifications: 104_167, delivery: 0.9999, calls: 112_357, callsPerNotification: 1.079, duplicates: 0, meanS: 2.35 },
  { run: 'seed model: cascade, push down', notifications: 104_167, delivery: 0.9991, calls: 166_806, callsPerNotification: 1.601, duplicates: 0 },
] as const;
/** What a breaker on push saves in the seed's model: 166,806 - 112,357 calls, per notification. */
export const SEED_SAVED_PER_NOTIFICATION = (166_806 - 112_357) / 104_167;

const num = (n: number | undefined, digits = 0) =>
  n === undefined ? '-' : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const lat = (s: LatencyStats) => (s.meanMs === undefined ? '-' : `${s.meanMs} / ${s.p95Ms}`);

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function formatReport(options: ScenarioOptions, runs: readonly RunResult[], elapsedMs: number): string {
  const scale = options.timeScale;
  const first = runs[0];
  const out: string[] = [];
  out.push(
    `push-down: ${options.notifications} notifications at ${options.ratePerSecond}/s (open loop, shares ${CHANNELS.join('/')} ${CHANNELS.map((c) => BI_ASSUMPTIONS.channelShare[c].toFixed(2)).join('/')}, ${options.urgentShare * 100} % urgent), ${options.workers} worker process(es)`,
  );
  if (first?.failover)
    out.push(
      `push has two providers: push-a (the platform's simulators) then push-b (a second simulators process), PROVIDERS_FILE; ${first.failover.killed} killed with chaos kill-provider`,
    );
  if (first)
    out.push(
      `${first.failover?.killed ?? 'push'} killed (connection refused) at +${(first.downAtMs / 1_000).toFixed(1)} s, restored at +${(first.upAtMs / 1_000).toFixed(1)} s of a ${(first.loadMs / 1_000).toFixed(1)} s load`,
    );
  out.push(
    `time scale ${scale}: cascade wait ${Math.round(30_000 * scale)} ms (BI9 30 s), breaker window ${Math.round(10_000 * scale)} ms, open ${Math.round(5_000 * scale)} ms; min calls 20, ratio 0.5, 3 probes, 2 successes close`,
  );
  out.push('');
  const header = [
    'run',
    'notif.',
    'delivery',
    'calls',
    'calls/notif.',
    'push calls while down',
    'opened after ms',
    'closed after ms',
    'urgent mean/p95 ms',
    'reminder mean/p95 ms',
    'dup.',
  ];
  const rows: string[][] = SEED_ROWS.map((r) => [
    r.run,
    num(r.notifications),
    r.delivery.toFixed(4),
    num(r.calls),
    r.callsPerNotification.toFixed(3),
    r.run.endsWith('down') ? 'all push calls' : '-',
    '-',
    '-',
    'meanS' in r ? `${r.meanS} s (unscaled)` : '-',
    '-',
    String(r.duplicates),
  ]);
  for (const run of runs) {
    const f = run.figures;
    rows.push([
      `measured: breaker ${run.mode}${run.mode === 'on' && !run.breakerActive ? ' (NOT WIRED)' : ''}`,
      num(f.notifications),
      f.deliveryRate.toFixed(4),
      num(f.externalCalls),
      f.callsPerNotification.toFixed(3),
      num(f.wastedCalls),
      num(run.openedAfterMs),
      num(run.closedAfterMs),
      lat(f.latency.urgent),
      lat(f.latency.reminder),
      String(run.duplicates),
    ]);
  }
  out.push(table(header, rows));
  const on = runs.find((r) => r.mode === 'on');
  const off = runs.find((r) => r.mode === 'off');
  if (on && off && !on.breakerActive) {
    out.push('');
    out.push('calls saved by the breaker: not measured (the "breaker on" run had no breakers: see the note below)');
  } else if (on && off) {
    const saved = off.figures.externalCalls - on.figures.externalCalls;
    const outageShare = (on.upAtMs - on.downAtMs) / on.loadMs;
    out.push('');
    out.push(
      `calls saved by the breaker: ${saved} (${((saved / off.figures.externalCalls) * 100).toFixed(1)} % of the calls without it); ` +
        `${(saved / (options.notifications * outageShare)).toFixed(3)} per notification sent during the outage ` +
        `(seed model, push down all minute: ${SEED_SAVED_PER_NOTIFICATION.toFixed(3)} per notification = 54,449 / 104,167)`,
    );
    out.push(
      `calls to dead push: ${off.figures.wastedCalls} without the breaker, ${on.figures.wastedCalls} with it (${on.openPeriods} open period(s): probes only once open)`,
    );
  }
  out.push('');
  out.push('urgent latency by preferred channel, mean/p95 ms (before / during / after the outage): bulkheads keep SMS and e-mail flat');
  out.push(
    table(
      ['run', 'push', 'sms', 'email'],
      runs.map((r) => [
        `breaker ${r.mode}`,
        ...(['push', 'sms', 'email'] as const).map((c) => {
          const p = r.figures.urgentByPreferred[c];
          return `${lat(p.before)} | ${lat(p.during)} | ${lat(p.after)}`;
        }),
      ]),
    ),
  );
  if (runs.some((r) => r.failover)) out.push('', ...failoverLines(runs));
  for (const run of runs) {
    const notes: string[] = [];
    if (run.mode === 'on' && !run.breakerActive)
      notes.push(
        'the apps wrote no breaker state: createBreakerGate is not wired into apps/api and apps/worker (BREAKER_* ignored), so this row ran without breakers',
      );
    if (run.figures.failed > 0) {
      notes.push(
        `${run.figures.failed} failed: ${Object.entries(run.figures.failureReasons)
          .map(([why, n]) => `${n} ${why}`)
          .join(', ')}`,
      );
    }
    if (run.unfinished > 0) notes.push(`${run.unfinished} notification(s) not terminal when the drain timed out`);
    if (run.rejected > 0) notes.push(`${run.rejected} intake request(s) not accepted`);
    if (run.maxLagMs > 250) notes.push(`the load generator fell ${run.maxLagMs} ms behind schedule (the machine was saturated)`);
    for (const note of notes) out.push(`note (breaker ${run.mode}): ${note}`);
  }
  out.push(`scenario time ${(elapsedMs / 1_000).toFixed(1)} s`);
  return out.join('\n');
}

/** Per push provider: calls, deliveries, what the kill cost on push-a, push-b carrying push, both ledgers. */
function failoverLines(runs: readonly RunResult[]): string[] {
  const out: string[] = [];
  const killed = runs.find((r) => r.failover)?.failover?.killed ?? 'push-a';
  out.push(`push providers (calls and deliveries from the attempt records; "while down": started while ${killed} was down)`);
  const rows: string[][] = [];
  for (const run of runs) {
    if (!run.failover) continue;
    for (const p of run.failover.figures.providers) {
      const b = run.failover.breakers[p.name];
      rows.push([
        `breaker ${run.mode}`,
        p.name,
        num(p.calls),
        num(p.deliveries),
        num(p.callsWhileDown),
        p.name === run.failover.killed ? `${num(p.callsWhileDown - p.deliveriesWhileDown)} refused` : num(p.deliveriesWhileDown),
        num(b?.openedAfterMs),
        num(b?.closedAfterMs),
        num(b?.opens),
      ]);
    }
  }
  out.push(
    table(['run', 'provider', 'calls', 'deliveries', 'calls while down', 'deliveries while down', 'opened after ms', 'closed after ms', 'open periods'], rows),
  );
  for (const run of runs) {
    const f = run.failover;
    if (!f) continue;
    const { preferredDuringOutage: n, deliveredOnChannel: onPush, deliveredElsewhere: elsewhere } = f.figures;
    const share = n === 0 ? '-' : `${((onPush / n) * 100).toFixed(1)} %`;
    out.push(
      `breaker ${run.mode}: ${num(n)} push-first notifications accepted during the outage: ${num(onPush)} delivered on push (${share}, through the other provider), ` +
        `${num(elsewhere)} cascaded to SMS / e-mail (${num(onPush)} cascades avoided)`,
    );
    const crossLedger = Math.max(0, f.ledgerDeliveredKeys - f.delivered);
    out.push(
      `breaker ${run.mode}: duplicates across both simulators' ledgers: ${run.duplicates} (delivered keys ${num(f.ledgerDeliveredKeys)} summed over both ledgers, ` +
        `${num(f.delivered)} delivered notifications: ${crossLedger} key(s) in two ledgers; ${f.ledgerDuplicateKeys} delivered twice inside one)`,
    );
  }
  return out;
}
