/** The bench's figures: the value at index floor(q·n) of a sorted list (its tables have always used this rank). */
export const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
export const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
export const median = (xs: readonly number[]): number =>
  quantile(
    [...xs].sort((x, y) => x - y),
    0.5,
  );
export const pad = (v: string | number, w: number): string => String(v).padStart(w);
export const log = (line = ''): void => console.log(line);
