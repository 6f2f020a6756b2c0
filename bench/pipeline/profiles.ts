import { ensurePostgresBinaries, startPrivatePostgres, type PrivatePostgres, type ProcessGroup } from '@notify/platform-kit';

/**
 * What the platform runs with in a bench run. `production` is what is deployed: Redis with AOF
 * (`appendfsync everysec`), the history on against its own PostgreSQL (fsync on) with an archiver
 * in every worker. `lean` is Redis alone without persistence, the history off: the pipeline's own
 * cost. `webhooks` is production with one tenant endpoint subscribed to `notification.delivered`.
 */
export interface Profile {
  redisPersistence: 'aof' | 'none';
  history: boolean;
  webhooks: boolean;
}

export const PROFILES = {
  production: { redisPersistence: 'aof', history: true, webhooks: false },
  lean: { redisPersistence: 'none', history: false, webhooks: false },
  webhooks: { redisPersistence: 'aof', history: true, webhooks: true },
} as const satisfies Record<string, Profile>;

export type ProfileName = keyof typeof PROFILES;

/** The header's words for a profile: its name and every part of its configuration. */
export function profileText(name: ProfileName): string {
  const p: Profile = PROFILES[name];
  return (
    `profile ${name}: redis-server ${p.redisPersistence === 'aof' ? 'with AOF (appendfsync everysec)' : 'without persistence'}, ` +
    `history ${p.history ? 'on (private PostgreSQL, fsync on), archiver on in every worker' : 'off, archiver off'}, ` +
    `${p.webhooks ? 'one webhook endpoint (notification.delivered, loopback receiver answering 200)' : 'no webhooks'}`
  );
}

export interface ProfileServices {
  /** The api's and the workers' env for the profile (history, archiver, webhook hosts). */
  appEnv: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * The services a profile needs besides the platform: with the history, a private PostgreSQL in
 * `group` (its postmaster and backends are counted as `postgres`).
 */
export async function startProfileServices(
  name: ProfileName,
  o: { group: ProcessGroup; inherited: Record<string, string>; log: (line: string) => void; signal: AbortSignal },
): Promise<ProfileServices> {
  const p: Profile = PROFILES[name];
  const webhookEnv: Record<string, string> = p.webhooks ? { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } : {};
  if (!p.history) return { appEnv: { HISTORY_ENABLED: 'false', ...webhookEnv }, stop: async () => undefined };
  await ensurePostgresBinaries({ env: o.inherited, log: o.log });
  const postgres: PrivatePostgres = await startPrivatePostgres({
    group: o.group,
    env: o.inherited,
    // Its own temporary directory (removed on stop): under root the server runs as `postgres`, which cannot enter the bench's.
    database: 'notify',
    fast: false,
    signal: o.signal,
  });
  return {
    appEnv: { HISTORY_ENABLED: 'true', ARCHIVER_ENABLED: 'true', DATABASE_URL: postgres.url, ...webhookEnv },
    stop: () => postgres.stop(),
  };
}
