import { Redis } from 'ioredis';
import { startPrivateRedis, type PrivateRedis } from '@notify/platform-kit';
import { loadScripts, type IntakeArgs, type Scripts } from '@notify/pipeline';

/**
 * One private redis-server per test file, the pipeline's scripts loaded on one connection, and
 * an empty database before each test: the scripts are called directly, as the pipeline does.
 */
export function useScriptRedis(): { redis: () => Redis; scripts: () => Scripts; archiving: () => Scripts } {
  let server: PrivateRedis | undefined;
  let redis: Redis | undefined;
  let scripts: Scripts | undefined;
  let archiving: Scripts | undefined;
  beforeAll(async () => {
    server = await startPrivateRedis({ persistence: 'none' });
    redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
    scripts = loadScripts(redis);
    archiving = loadScripts(redis, { archive: true });
  });
  beforeEach(async () => {
    await redis?.flushdb();
  });
  afterAll(async () => {
    await redis?.quit();
    await server?.stop();
  });
  /** `archiving`: the same scripts as a worker with history on runs them (terminal records join the archive queue). */
  return { redis: () => redis as Redis, scripts: () => scripts as Scripts, archiving: () => archiving as Scripts };
}

export const NOW = 1_800_000_000_000;

/** A notification with all three channels, as intake writes it. */
export function intakeArgs(overrides: Partial<IntakeArgs> = {}): IntakeArgs {
  return {
    id: 'n0000000000000000000000000000001',
    fingerprint: 'fp-1',
    tenant: 'tenant-a',
    eventId: 'e-1',
    recipientId: 'r-1',
    rh: 'rh000000000000000000000000000001',
    priority: 'urgent',
    plan: ['push', 'sms', 'email'],
    firstChannel: 'push',
    content: { title: 'T', body: 'B' },
    addresses: { push: 'tok', sms: '+905551112233', email: 'r@example.com' },
    addressHashes: { push: 'h-push', sms: 'h-sms', email: 'h-email' },
    now: NOW,
    recordTtlSeconds: 3_600,
    skips: [],
    ...overrides,
  };
}
