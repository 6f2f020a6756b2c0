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
    .default(DEV_DEFAULTS.databaseUrl)
    .meta({
      description:
        "The history's PostgreSQL (`postgres://` or `postgresql://`; [docs/history.md](history.md)). 5433 by default, not 5432: Debian's `postgresql` package runs its own cluster on 5432. `npm start` starts a private PostgreSQL here (data in `.data/postgres`) when nothing answers at a local URL. Holds the password when there is one: never logged.",
      mustSet: 'your PostgreSQL (the history; the password stays out of every log)',
    }),
  HISTORY_ENABLED: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .optional()
    .meta({
      description:
        'Archive terminal notifications to PostgreSQL (worker) and serve the list endpoints from it (api) (`true`/`false`/`1`/`0`). `npm start` and the compose file turn it on. Off: records stay in Redis with their TTL and the list endpoints answer 503.',
      defaultText: 'on in production',
    }),
  HISTORY_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3_650)
    .default(90)
    .describe('Days of history kept: older daily partitions are dropped whole (by whichever process opens the store).'),
  IDEMPOTENCY_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(86_400, 'must be at least 86400 (24 h)')
    .max(90 * 86_400)
    .default(7 * 86_400)
    .describe(
      "With history on: how long an archived notification's compact idempotency entry (id, 64-bit payload fingerprint, final status; ~35 B in Redis) still answers a repeated event with 200 or 422; at least 86400 (24 h), at most 90 days. The worker writes the entries, the api's intake reads them.",
    ),
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
