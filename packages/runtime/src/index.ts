export * from './config-fragments';
export * from './logger';
export * from './redis-connection';
export * from './service-lifecycle';
export * from './process-registry';
