import type { NotificationView } from '@notify/core';
import { percentile } from '@notify/platform-kit';
import type { CaseResult } from './run-case';

/** Accepted -> delivered, ms, of the delivered ones (`firstTry`: only those delivered by their first call). */
function latencies(views: readonly NotificationView[], firstTry: boolean): number[] {
  return views
    .filter((v) => v.status === 'delivered' && v.deliveredAt !== undefined && (!firstTry || v.attempts.length === 1))
    .map((v) => (v.deliveredAt as number) - v.acceptedAt);
}

const ms = (v: number | undefined) => (v === undefined ? 'n/a' : v >= 10_000 ? `${(v / 1_000).toFixed(1)} s` : `${Math.round(v)} ms`);

function pair(values: readonly number[]): string {
  return `${ms(percentile(values, 50))} / ${ms(percentile(values, 99))}`;
}

/** The case where A ran alone at the same limit as `r`: the reference for A's throughput. */
function aloneLike(results: readonly CaseResult[], r: CaseResult): CaseResult | undefined {
  return results.find((x) => x.c.bRate === 0 && x.c.aLimit === r.c.aLimit);
}

/** The table: per case, A's throughput (and against A alone at the same limit), B's urgent first-try and reminder p50/p99. */
export function figureLines(results: readonly CaseResult[]): string[] {
  const lines = [
    '| case | A accepted | A delivered/s (x A alone) | B urgent first try, accepted→delivered p50 / p99 | B reminders p50 / p99 | B delivered | B refused |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const alone = aloneLike(results, r);
    const ratio = alone && r !== alone ? ` (${(r.aThroughput / alone.aThroughput).toFixed(2)})` : '';
    const b =
      r.c.bRate === 0
        ? ['-', '-', '-', '-']
        : [
            pair(latencies(r.bUrgent, true)),
            pair(latencies(r.bReminders, false)),
            `${latencies([...r.bUrgent, ...r.bReminders], false).length} / ${r.bUrgent.length + r.bReminders.length}`,
            String(r.bRefused),
          ];
    lines.push(`| ${r.c.label} | ${r.aAccepted} | ${r.aThroughput.toFixed(0)}${ratio} | ${b.join(' | ')} |`);
  }
  return lines;
}

/**
 * The targets, against each fair-share case beside B: A at its rate limit (the flood a
 * configured tenant can send), then A unlimited (backpressure off, then on). A's throughput is
 * held against A alone at the same limit.
 */
export function targetLines(results: readonly CaseResult[]): string[] {
  const check = (ok: boolean) => (ok ? 'met' : 'missed');
  const fairCases = results.filter((r) => r.c.fairShare && r.c.bRate > 0);
  const ordered = [...fairCases.filter((r) => r.c.aLimit !== undefined), ...fairCases.filter((r) => r.c.aLimit === undefined)];
  return ordered.flatMap((fair) => {
    const alone = aloneLike(results, fair);
    if (!alone) return [];
    const urgent = percentile(latencies(fair.bUrgent, true), 99);
    const reminders = percentile(latencies(fair.bReminders, false), 99);
    const ratio = fair.aThroughput / alone.aThroughput;
    return [
      `targets (${fair.c.label}${fair.c.aLimit === undefined ? ', A unlimited' : ''}): B urgent first-try p99 ${ms(urgent)} < 250 ms: ${check((urgent ?? Infinity) < 250)}; ` +
        `B reminder p99 ${ms(reminders)} < 2 s: ${check((reminders ?? Infinity) < 2_000)}; A throughput ${ratio.toFixed(2)} x A alone >= 0.9: ${check(ratio >= 0.9)}`,
    ];
  });
}
