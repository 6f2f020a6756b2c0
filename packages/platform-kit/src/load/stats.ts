/** Mean, or undefined for no values. */
export function mean(values: readonly number[]): number | undefined {
  return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Nearest-rank percentile (p in (0, 100]), or undefined for no values. */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

export interface LatencyStats {
  count: number;
  meanMs?: number;
  p95Ms?: number;
}

export function latencyStats(values: readonly number[]): LatencyStats {
  const m = mean(values);
  const p = percentile(values, 95);
  return { count: values.length, ...(m !== undefined ? { meanMs: Math.round(m) } : {}), ...(p !== undefined ? { p95Ms: Math.round(p) } : {}) };
}
