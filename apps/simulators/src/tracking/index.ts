/** Simulated tracking stores (delivery-ops, tariff, measurement) with fault injection. */
export { createTrackingStoresApp, type TrackingStores, type TrackingStoresControl, type TrackingStoresOptions, type TrackingStoresStats } from './stores-app';
export { loadTrackingStoresConfig, TARIFF_MODES, type TariffMode, type TrackingStoresConfig } from './config';
export type { StoreCounters } from './stats';
