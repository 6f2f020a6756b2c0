/** The guarded tracking query path: router factory and its config. */
export { createTrackingRouter, type TrackingRouter, type TrackingRouterDeps } from './router';
export { loadTrackingConfig, type TrackingConfig } from './config';
export { runTrackingQuery, type BudgetInfo, type StepSummary, type TrackingQueryOptions, type TrackingQueryResult, type TrackingRecord } from './query';
export type { TrackingStores } from './http-stores';
export { computeFee, type DeliveryStatus, type Fee, type Measurement, type Tariff } from './records';
