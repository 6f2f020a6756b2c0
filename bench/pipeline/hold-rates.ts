import { holdRate, type BenchTarget, type HoldOptions, type RateResult } from './hold-rate';

type Common = Omit<HoldOptions, 'rate' | 'seconds' | 'settleSeconds' | 'seed'>;

/**
 * A warm-up (not reported: JIT, script loading, connection pools), then each rate held in turn,
 * with the same generator and the same measurements for the platform and its references.
 */
export async function holdRates(
  target: BenchTarget,
  o: { rates: number[]; seconds: number; settle: number; common: Common; log: (line: string) => void; each?: (r: RateResult) => void },
): Promise<RateResult[]> {
  await holdRate(target, { ...o.common, rate: Math.min(...o.rates) / 2, seconds: 5, settleSeconds: 1, seed: 1, urgentSample: 0 });
  const results: RateResult[] = [];
  for (const rate of o.rates) {
    o.log(`  holding ${rate}/s for ${o.seconds} s`);
    const result = await holdRate(target, { ...o.common, rate, seconds: o.seconds, settleSeconds: o.settle, seed: rate });
    results.push(result);
    o.each?.(result);
  }
  return results;
}
