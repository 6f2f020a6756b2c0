/**
 * The variables of `npm start` (scripts/run-platform.ts). What it shares with the apps is the
 * apps' own field, reused, so a port or a URL is declared once; only the supervisor's own
 * settings are declared here.
 */
import { z } from 'zod';
import { apiOwnEnvShape } from '../apps/api/src/config';
import { WORKER_RENAMES, workerOwnEnvShape } from '../apps/worker/src/config';
import { historyEnvShape, sharedEnvShape, type EnvRenames } from '@notify/runtime';

/** What only the supervisor reads (documented in its own section). */
export const startOwnEnvShape = {
  WORKER_COUNT: z.coerce
    .number()
    .int()
    .min(1)
    .max(16)
    .default(1)
    .describe('Worker processes `npm start` runs; worker i (from 0) listens on `WORKER_METRICS_PORT` + i. A worker that dies is started again.'),
};

export const startEnvShape = {
  ...startOwnEnvShape,
  NODE_ENV: sharedEnvShape.NODE_ENV,
  REDIS_URL: sharedEnvShape.REDIS_URL,
  REDIS_CLUSTER_NODES: sharedEnvShape.REDIS_CLUSTER_NODES,
  DATABASE_URL: historyEnvShape.DATABASE_URL,
  /** Unset: npm start runs with the history on. */
  HISTORY_ENABLED: historyEnvShape.HISTORY_ENABLED,
  API_HOST: apiOwnEnvShape.API_HOST,
  API_PORT: apiOwnEnvShape.API_PORT,
  API_METRICS_PORT: apiOwnEnvShape.API_METRICS_PORT,
  /** Read only to print the development key when it is the one in use. */
  API_KEYS: apiOwnEnvShape.API_KEYS,
  WORKER_METRICS_PORT: workerOwnEnvShape.WORKER_METRICS_PORT,
};

/** The worker's renames the supervisor reads too (a former METRICS_PORT still offsets each worker). */
export const START_RENAMES: EnvRenames = { renamed: { METRICS_PORT: WORKER_RENAMES.renamed.METRICS_PORT! }, replaced: {} };
