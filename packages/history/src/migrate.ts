import { Kysely, Migrator, PostgresDialect } from 'kysely';
import { MIGRATIONS } from './migrations';
import { createPool } from './pool';

/** Session advisory lock held while migrating: one process migrates, the others wait and then find nothing to do. */
export const MIGRATION_LOCK_KEY = 7_120_012_001;

/**
 * Applies the pending migrations (Kysely's Migrator, which also locks within its own
 * transaction). Our session lock around it covers Kysely's first creation of its bookkeeping
 * tables too, so two processes opening an empty database at once are safe.
 */
export async function runMigrations(url: string, applicationName: string): Promise<string[]> {
  const pool = createPool({ connectionString: url, max: 2, application_name: applicationName });
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  const lock = await pool.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => MIGRATIONS },
      migrationTableName: 'history_migration',
      migrationLockTableName: 'history_migration_lock',
    });
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error('history migrations failed', { cause: error });
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    lock.release();
    await db.destroy();
  }
}
