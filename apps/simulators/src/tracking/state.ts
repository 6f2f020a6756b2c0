import type { Registry } from 'prom-client';
import type { TariffMode, TrackingStoresConfig } from './config';
import { LatencyCycles } from './latency';
import { StoreStats } from './stats';

/** The stores' mutable state, shared by the store routes and the control endpoints. */
export class StoresState {
  tariffMode: TariffMode;
  honourCancellation: boolean;
  readonly latency: LatencyCycles;
  readonly stats: StoreStats;

  constructor(
    private readonly config: TrackingStoresConfig,
    registry: Registry,
  ) {
    this.tariffMode = config.tariffMode;
    this.honourCancellation = config.honourCancellation;
    this.latency = new LatencyCycles(config.timeScale);
    this.stats = new StoreStats(registry);
  }

  /** Back to how the stores started: configured mode and cancellation, cycles at 0, counters cleared. */
  reset(): void {
    this.tariffMode = this.config.tariffMode;
    this.honourCancellation = this.config.honourCancellation;
    this.latency.reset();
    this.stats.reset();
  }
}
