export * from './config-fragments';
export * from './dev-defaults';
export * from './http-server-limits';
export * from './logger';
export * from './metrics-listener';
export * from './redis-connection';
export * from './service-lifecycle';
export * from './process-registry';
