import { LATENCY_CYCLES, type TrackingStep } from '@notify/budget-chain';
import type { TariffMode } from './config';

/**
 * Plays each store's 17-long duration cycle (16 ordinary durations, then one long tail),
 * advancing one position per request that reaches the store, as in the seed's model:
 * a read that is never sent (no time left) does not move the cursor.
 */
export class LatencyCycles {
  private readonly cursor: Record<TrackingStep, number> = { 'delivery-ops': 0, tariff: 0, measurement: 0 };

  constructor(private readonly timeScale: number) {}

  next(store: TrackingStep, tariffMode: TariffMode): number {
    const regime = store === 'tariff' && tariffMode === 'slow' ? 'tariff-slow' : 'healthy';
    const cycle = LATENCY_CYCLES[regime][store];
    const position = this.cursor[store]++ % cycle.length;
    return (cycle[position] as number) * this.timeScale;
  }

  reset(): void {
    for (const store of Object.keys(this.cursor) as TrackingStep[]) this.cursor[store] = 0;
  }
}
