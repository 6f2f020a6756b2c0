/** `a="x",b="y"` -> { a: 'x', b: 'y' }; both groups take part in every match, hence the tuple cast. */
function parseLabels(raw: string): Record<string, string> {
  return Object.fromEntries([...raw.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]] as [string, string]));
}

/** Sums the samples of one metric in a Prometheus text exposition, filtered by label values. */
export function sumSamples(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{([^}]*)\})?\s+([^\s]+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = parseLabels(match[3] ?? '');
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) total += Number(match[4]);
  }
  return total;
}

/** Histogram buckets (le -> cumulative count) of one metric, summed over matching series. */
export function histogramBuckets(text: string, name: string, labels: Record<string, string> = {}): Map<number, number> {
  const buckets = new Map<number, number>();
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${name}_bucket\\{([^}]*)\\}\\s+([^\\s]+)`).exec(line);
    if (!match) continue;
    const found = parseLabels(match[1] ?? '');
    if (!Object.entries(labels).every(([k, v]) => found[k] === v)) continue;
    const le = found.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(found.le);
    buckets.set(le, (buckets.get(le) ?? 0) + Number(match[2]));
  }
  return buckets;
}

/** The bucket bound under which `q` of the observations fall (an upper estimate). */
export function quantileFromBuckets(buckets: Map<number, number>, q: number): number | undefined {
  const sorted = [...buckets].sort((a, b) => a[0] - b[0]);
  const total = sorted.at(-1)?.[1] ?? 0;
  if (total === 0) return undefined;
  for (const [le, count] of sorted) if (count >= q * total) return le;
  return undefined;
}
