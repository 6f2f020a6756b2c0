import { z } from 'zod';
import { DEV_DEFAULTS } from './dev-defaults';

/**
 * The history store's variables, shared by the api (reads it) and the worker (archives into it),
 * so both read the same database with the same retention: each opens the store, and opening it
 * drops the partitions older than the retention.
 */
export const historyEnvShape = {
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .default(DEV_DEFAULTS.databaseUrl),
  /** Unset: on when NODE_ENV=production (npm start turns it on too), off otherwise (records then stay in Redis with their TTL). */
  HISTORY_ENABLED: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .optional(),
  /** Days of history kept: older daily partitions are dropped whole. */
  HISTORY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3_650).default(90),
  /** How long an archived notification's compact idempotency entry answers a repeated event (intake reads, the archiver writes). */
  IDEMPOTENCY_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(86_400, 'must be at least 86400 (24 h)')
    .max(90 * 86_400)
    .default(7 * 86_400),
};

export interface HistoryConfig {
  enabled: boolean;
  /** Holds the password when there is one: never log it. */
  url: string;
  retentionDays: number;
  idempotencyWindowSeconds: number;
}

export function toHistoryConfig(c: {
  NODE_ENV: string;
  DATABASE_URL: string;
  HISTORY_ENABLED?: boolean | undefined;
  HISTORY_RETENTION_DAYS: number;
  IDEMPOTENCY_WINDOW_SECONDS: number;
}): HistoryConfig {
  return {
    enabled: c.HISTORY_ENABLED ?? c.NODE_ENV === 'production',
    url: c.DATABASE_URL,
    retentionDays: c.HISTORY_RETENTION_DAYS,
    idempotencyWindowSeconds: c.IDEMPOTENCY_WINDOW_SECONDS,
  };
}
