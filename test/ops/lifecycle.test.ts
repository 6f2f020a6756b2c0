import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { request as httpRequest } from 'node:http';
import { CHANNELS, PRIORITIES, QUEUE_PREFIX, channelQueueName, notificationId, notificationKey } from '@notify/core';
import { loadConfig as loadSimConfig } from '../../apps/simulators/src/config';
import { startSimulators, type RunningSimulators } from '../../apps/simulators/src/simulators';
import { FAST_CASCADE_ENV, TEST_API_KEY } from '../harness/platform';
import { startPrivateRedis as startTestRedis, type PrivateRedis as TestRedis } from '@notify/platform-kit';
import { waitFor } from '@notify/platform-kit';
import { spawnApp as startApp, spawnAppOnFreePorts, type AppProcess } from '../harness/app-process';
import { sendNotifications } from './traffic';

/**
 * The api and the worker as real processes (tsx, as in the Dockerfile), signalled like an
 * orchestrator does. Providers answer in ~200 ms so jobs are really in flight at SIGTERM.
 */
const GRACE_MS = 10_000;
const LANE_CONCURRENCY = 2;

let redis: TestRedis | undefined;
let sims: RunningSimulators | undefined;
let admin: Redis | undefined;
const processes: AppProcess[] = [];
const closers: { close(): Promise<unknown> }[] = [];

function baseEnv(): Record<string, string> {
  if (!redis || !sims) throw new Error('beforeAll did not run');
  const lane = { concurrency: LANE_CONCURRENCY };
  const lanes = {
    LANES: JSON.stringify(Object.fromEntries(CHANNELS.map((channel) => [channel, Object.fromEntries(PRIORITIES.map((priority) => [priority, lane]))]))),
  };
  return {
    // The production profile: the durability guard runs (and passes on the harness Redis).
    NODE_ENV: 'production',
    REDIS_URL: redis.url,
    API_HOST: '127.0.0.1',
    WORKER_METRICS_HOST: '127.0.0.1',
    API_KEYS: `${TEST_API_KEY}:tenant-a`,
    // Production refuses to start without an explicit admin key of 32+ characters.
    ADMIN_API_KEY: 'lifecycle-admin-key-0000000000000000',
    API_METRICS_PORT: '0',
    // The history (on by default in production) is not what these tests are about: never the machine's PostgreSQL.
    HISTORY_ENABLED: 'false',
    PROVIDER_PUSH_URL: sims.providerUrls.push,
    PROVIDER_SMS_URL: sims.providerUrls.sms,
    PROVIDER_EMAIL_URL: sims.providerUrls.email,
    SHUTDOWN_GRACE_MS: String(GRACE_MS),
    // A job abandoned by a dying worker is noticed as stalled within ~2 s, not BullMQ's 30 s.
    WORKER_LOCK_DURATION_MS: '2000',
    WORKER_STALLED_INTERVAL_MS: '1000',
    ...FAST_CASCADE_ENV,
    ...lanes,
  };
}

async function startApi(env: Record<string, string> = {}): Promise<{ proc: AppProcess; url: string }> {
  const { proc, ports } = await spawnAppOnFreePorts(
    'api',
    1,
    ([port]) => ({ ...baseEnv(), API_PORT: String(port), ...env }),
    ([port]) => `http://127.0.0.1:${port}/readyz`,
  );
  processes.push(proc);
  return { proc, url: `http://127.0.0.1:${ports[0]}` };
}

async function startWorker(): Promise<{ proc: AppProcess; metricsUrl: string }> {
  const { proc, ports } = await spawnAppOnFreePorts(
    'worker',
    1,
    ([port]) => ({ ...baseEnv(), WORKER_METRICS_PORT: String(port) }),
    ([port]) => `http://127.0.0.1:${port}/readyz`,
  );
  processes.push(proc);
  return { proc, metricsUrl: `http://127.0.0.1:${ports[0]}/metrics` };
}

async function statuses(ids: string[]): Promise<string[]> {
  const pipeline = admin!.pipeline();
  for (const id of ids) pipeline.hget(notificationKey(id), 'status');
  return ((await pipeline.exec()) ?? []).map(([, value]) => String(value));
}

beforeAll(async () => {
  redis = await startTestRedis();
  sims = await startSimulators(
    loadSimConfig({
      TRACKING_STORES_PORT: '0',
      SIM_CONTROL_PORT: '0',
      SIM_PUSH_PORT: '0',
      SIM_SMS_PORT: '0',
      SIM_EMAIL_PORT: '0',
      SIM_LATENCY_MS: '200',
    }),
  );
  admin = new Redis(redis.url, { maxRetriesPerRequest: null });
});

afterAll(async () => {
  for (const proc of processes) await proc.kill();
  for (const closer of closers) await closer.close().catch(() => undefined);
  admin?.disconnect();
  await sims?.close();
  await redis?.stop();
});

describe('worker SIGTERM', () => {
  it('finishes in-flight jobs, exits 0 within the grace period, leaves nothing stalled; a second worker finishes the rest', async () => {
    const connection = { host: '127.0.0.1', port: redis!.port };
    const lanes = CHANNELS.flatMap((c) => PRIORITIES.map((p) => channelQueueName(c, p)));
    const stalled: string[] = [];
    for (const name of lanes) {
      const events = new QueueEvents(name, { connection, prefix: QUEUE_PREFIX });
      events.on('stalled', ({ jobId }) => stalled.push(`${name}/${jobId}`));
      closers.push(events);
      await events.waitUntilReady();
    }
    const queues = lanes.map((name) => new Queue(name, { connection, prefix: QUEUE_PREFIX }));
    closers.push(...queues);

    const [api, first] = await Promise.all([startApi(), startWorker()]);
    // 150 notifications over six lanes of 2 slots at ~200 ms a call: seconds of work, most of it left at SIGTERM.
    const { ids } = await sendNotifications(api.url, 150, `life-${Date.now()}`);
    expect(ids).toHaveLength(150);

    const inFlight = await waitFor(
      'jobs in flight on the first worker',
      async () => {
        const active = (await Promise.all(queues.map(async (q) => (await q.getActive()).map((j) => ({ queue: q, id: j.id as string }))))).flat();
        return active.length >= 4 ? active : undefined;
      },
      15_000,
      20,
    );

    const signalled = performance.now();
    first.proc.signal('SIGTERM');
    const exit = await first.proc.exited;
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
    expect(exit.at - signalled).toBeLessThan(GRACE_MS);
    expect(first.proc.output()).toMatch(/worker stopped/);

    // Every job that was running at SIGTERM was finished by that worker before it exited
    // (step jobs are removed on completion: gone = completed; failed, waiting or active = not).
    const states = await Promise.all(inFlight.map(async ({ queue, id }) => (await queue.getJob(id))?.getState() ?? 'completed'));
    expect(states.filter((s) => s !== 'completed')).toEqual([]);
    // And it left work behind (otherwise the test proved nothing about handing over).
    const terminalBefore = (await statuses(ids)).filter((s) => s === 'delivered' || s === 'failed').length;
    expect(terminalBefore).toBeLessThan(ids.length);

    const second = await startWorker();
    await waitFor('every notification terminal', async () => (await statuses(ids)).every((s) => s === 'delivered' || s === 'failed'), 45_000, 250);

    // A job abandoned by the first worker is reported by the second stalled check after its lock
    // (2 s from the worker's exit) lapsed: the first marks it, the second moves it. Wait for two
    // such checks on every lane.
    const lapsed = Date.now() - (performance.now() - exit.at) + 2000;
    const checks = new Map<string, Set<number>>();
    await waitFor(
      'two stalled checks on every lane after the locks lapsed',
      async () => {
        for (const q of queues) {
          const at = Number(await admin!.get(q.toKey('stalled-check')));
          if (at > lapsed) checks.set(q.name, (checks.get(q.name) ?? new Set()).add(at));
        }
        return queues.every((q) => (checks.get(q.name)?.size ?? 0) >= 2);
      },
      45_000,
      100,
    );
    const streamed = await Promise.all(queues.map(async (q) => (await admin!.xrange(q.toKey('events'), '-', '+')).filter(([, f]) => f[1] === 'stalled')));
    expect(streamed.flat()).toEqual([]);
    expect(stalled).toEqual([]);
    const final = await statuses(ids);
    expect(final.filter((s) => s === 'delivered').length).toBeGreaterThanOrEqual(ids.length - 3);
    // Later tests pause Redis writes to hold one api's script: no other process may run a script then.
    await second.proc.kill();
    await api.proc.kill();
  }, 90_000);
});

describe('api SIGTERM', () => {
  it('refuses new intake, completes the request in flight, exits 0', async () => {
    const api = await startApi();
    const port = Number(new URL(api.url).port);
    const body = JSON.stringify({
      eventId: `drain-${Date.now()}`,
      priority: 'urgent',
      recipient: { id: 'drain-r1', addresses: { email: 'drain@example.com' } },
      content: { title: 'Hi', body: 'Draining' },
    });
    const post = (payload: string, timeoutMs = 30_000) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/v1/notifications',
            agent: false,
            headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => {
              text += chunk.toString();
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
        req.end(payload);
      });

    // Hold the request inside Redis: writes (the intake script) wait while reads (readyz) go on.
    await admin!.call('CLIENT', 'PAUSE', '3000', 'WRITE');
    const inFlight = post(body);
    await waitFor(
      'the intake script blocked in Redis',
      async () => /flags=b\b.*cmd=(evalsha|eval)\b/.test(String(await admin!.call('CLIENT', 'LIST'))),
      5_000,
      10,
    );

    const signalled = performance.now();
    api.proc.signal('SIGTERM');
    // The signal travels tsx → node → handler; readiness flips first (503 draining, or refused
    // once the listener is closed). An intake probe before that would itself block in Redis.
    await waitFor(
      'readyz to report draining',
      async () => {
        const res = await fetch(`${api.url}/readyz`).catch(() => undefined);
        return res === undefined || res.status === 503;
      },
      5_000,
      10,
    );
    // New intake: the listener is closed (refused, or reset when the connection reached the
    // backlog as the listener closed) or the instance answers 503 SHUTTING_DOWN. Which of these
    // happens is a race the client cannot tell apart; what matters is that nothing was stored.
    const fresh = await post(body.replace('drain-r1', 'drain-r2'), 2_000).then(
      (res) =>
        res.status === 503 && (JSON.parse(res.body) as { error?: { code?: string } }).error?.code === 'SHUTTING_DOWN'
          ? 'shutting-down'
          : `answered ${res.status}`,
      (error: NodeJS.ErrnoException) => error.code ?? error.message,
    );
    expect(['shutting-down', 'ECONNREFUSED', 'ECONNRESET']).toContain(fresh);

    await admin!.call('CLIENT', 'UNPAUSE');
    const answered = await inFlight;
    // The whole answer, so a refusal says which error it was.
    expect(answered.status === 202 ? 202 : answered).toBe(202);
    const id = (JSON.parse(answered.body) as { id: string }).id;
    expect(await admin!.hget(notificationKey(id), 'status')).toBeTruthy();
    const refused = notificationId('tenant-a', (JSON.parse(body) as { eventId: string }).eventId, 'drain-r2');
    expect(await admin!.exists(notificationKey(refused))).toBe(0);

    const exit = await api.proc.exited;
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
    expect(exit.at - signalled).toBeLessThan(GRACE_MS);
    expect(api.proc.output()).toMatch(/api stopped/);
  }, 60_000);
});

describe('production profile', () => {
  // Each case runs on its own Redis and process: the two refusals are waited for side by side.
  it.concurrent.each(['api', 'worker'] as const)(
    '%s refuses a Redis whose maxmemory-policy is not noeviction',
    async (app) => {
      const lossy = await startTestRedis({ args: ['--maxmemory-policy', 'allkeys-lru'] });
      closers.push({ close: () => lossy.stop() });
      const probe = new Redis(lossy.url);
      expect(await probe.config('GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'allkeys-lru']);
      probe.disconnect();
      // It refuses the Redis before it would serve: any port will do, so one the system picks.
      const proc = startApp(app, { ...baseEnv(), REDIS_URL: lossy.url, API_PORT: '0', WORKER_METRICS_PORT: '0' });
      processes.push(proc);
      const exit = await Promise.race([
        proc.exited,
        new Promise<undefined>((r) => {
          setTimeout(() => r(undefined), 20_000).unref();
        }),
      ]);
      expect(exit).toBeDefined();
      expect(exit?.code).not.toBe(0);
      expect(exit?.code).not.toBeNull();
      expect(proc.output()).toMatch(/maxmemory-policy/);
      expect(proc.output()).toMatch(/noeviction/);
      await lossy.stop();
    },
    30_000,
  );
});
