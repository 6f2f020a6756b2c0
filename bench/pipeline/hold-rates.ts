import { holdRate, type BenchTarget, type HoldOptions, type RateResult } from './hold-rate';

type Common = Omit<HoldOptions, 'rate' | 'seconds' | 'settleSeconds' | 'seed'>;

/**
 * A warm-up (not reported: JIT, script loading, connection pools), then each rate held in turn,
 * with the same generator and the same measurements for the platform and its references.
 */
export async function holdRates(
  target: BenchTarget,
  o: {
    rates: number[];
    seconds: number;
    settle: number;
    common: Common;
    log: (line: string) => void;
    each?: (r: RateResult) => void;
    /** Then hold this multiple of the highest sustained rate (the overload hold). */
    overload?: number | undefined;
  },
): Promise<RateResult[]> {
  await holdRate(target, { ...o.common, rate: Math.min(...o.rates) / 2, seconds: 5, settleSeconds: 1, seed: 1, urgentSample: 0 });
  const results: RateResult[] = [];
  for (const rate of o.rates) {
    o.log(`  holding ${rate}/s for ${o.seconds} s`);
    const result = await holdRate(target, { ...o.common, rate, seconds: o.seconds, settleSeconds: o.settle, seed: rate });
    results.push(result);
    o.each?.(result);
  }
  if (o.overload === undefined) return results;
  const sustained = Math.max(0, ...results.filter((r) => r.sustained).map((r) => r.offered));
  if (sustained === 0) {
    o.log('  overload: no rate was sustained, so there is no capacity to overload');
    return results;
  }
  const rate = Math.round(sustained * o.overload);
  o.log(`  overload: holding ${rate}/s (${o.overload} x ${sustained}/s) for ${o.seconds} s`);
  const result = { ...(await holdRate(target, { ...o.common, rate, seconds: o.seconds, settleSeconds: o.settle, seed: rate })), overloadOf: sustained };
  results.push(result);
  o.each?.(result);
  return results;
}
