export * from './buckets';
export * from './registry';
export * from './pipeline-metrics';
export * from './queue-metrics';
export * from './history-metrics';
export * from './webhook-metrics';
export * from './receipt-metrics';
export * from './schedule-metrics';
