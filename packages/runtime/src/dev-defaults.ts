/**
 * Development defaults, defined once: every config schema, the `npm start` supervisor and the
 * CLIs take their local ports and keys from here. The keys are public (they are in this file):
 * the api refuses to start with them, or without explicit keys, when NODE_ENV=production.
 */
export const DEV_DEFAULTS = {
  host: '127.0.0.1',
  redisUrl: 'redis://127.0.0.1:6379',
  /** 5433, not 5432: Debian's postgresql package runs its own cluster on 5432, with roles that are not ours. */
  databaseUrl: 'postgres://postgres@127.0.0.1:5433/notify',
  apiKey: 'dev-key-change-me-0001',
  tenant: 'dev',
  adminApiKey: 'dev-admin-key-change-me',
  apiPort: 3000,
  /** The api's /metrics listener (never the public port); below the workers' 9464 + i so any WORKER_COUNT fits. */
  apiMetricsPort: 9463,
  /** The first worker's /metrics, /healthz, /readyz listener. */
  workerMetricsPort: 9464,
  simControlPort: 4100,
  providerPorts: { push: 4101, sms: 4102, email: 4103 },
  trackingStoresPort: 4600,
} as const;

/** `http://127.0.0.1:<port>`: a local development origin. */
export const devOrigin = (port: number): string => `http://${DEV_DEFAULTS.host}:${port}`;
