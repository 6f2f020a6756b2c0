/**
 * Delivery latency buckets: fine around the 5 s urgent bound, then the cascade's 30 s and 60 s
 * steps (BI9), so both "urgent mean <= 5 s" and "second/third channel" are visible.
 */
export const DELIVERY_LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 4, 5, 7.5, 10, 15, 20, 30, 45, 60, 90, 120, 300];

/** Provider calls: the simulated providers answer in tens of ms; timeouts are seconds. */
export const CALL_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10];
