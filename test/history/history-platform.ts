import { openHistoryStore, type HistoryStore } from '@notify/history';
import type { PrivatePostgres } from '@notify/platform-kit';
import { startTestPlatform, type TestPlatform } from '../harness/platform';
import { historyEnv } from './archiver-fixture';
import { freshDatabase, startTestPostgres } from './postgres-fixture';

/** A test platform with history on: its private PostgreSQL, the history database and a store reading it back. */
export interface HistoryPlatform {
  postgres: PrivatePostgres;
  historyUrl: string;
  platform: TestPlatform;
  store: HistoryStore;
  stop(): Promise<void>;
}

/**
 * Starts PostgreSQL with a fresh `database`, then the platform with history on (`options` come
 * on top, their env merged over the history env). What started is stopped again if a later step fails.
 */
export async function startHistoryPlatform(database: string, options: Parameters<typeof startTestPlatform>[0] = {}): Promise<HistoryPlatform> {
  const postgres = await startTestPostgres();
  let platform: TestPlatform | undefined;
  let store: HistoryStore | undefined;
  const stop = async (): Promise<void> => {
    await store?.close();
    await platform?.stop();
    await postgres.stop();
  };
  try {
    const historyUrl = await freshDatabase(postgres, database);
    platform = await startTestPlatform({ ...options, env: { ...options.env, ...historyEnv(historyUrl) } });
    store = await openHistoryStore({ url: historyUrl, retentionDays: 30 });
    return { postgres, historyUrl, platform, store, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
