import { createServer, request as httpRequest, type Server } from 'node:http';
import { hostname } from 'node:os';
import pino from 'pino';
import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { createBreakerGate } from '@notify/pipeline';
import { createRedis, listProcesses } from '@notify/runtime';
import { runChaos } from '../../apps/chaos/src/run-chaos';
import { loadConfig as loadSimConfig } from '../../apps/simulators/src/config';
import { startSimulators, type RunningSimulators } from '../../apps/simulators/src/simulators';
import { startPrivateRedis as startTestRedis, type PrivateRedis as TestRedis } from '@notify/platform-kit';
import { waitFor } from '@notify/platform-kit';
import { spawnTs, type Spawned } from './spawn-fixture';

/** The chaos CLI against the real simulators (HTTP) and a private Redis. */
let redis: TestRedis;
let sims: RunningSimulators;
let admin: Redis;
const spawned: Spawned[] = [];
const errors: string[] = [];
let env: Record<string, string>;

beforeAll(async () => {
  redis = await startTestRedis();
  sims = await startSimulators(
    loadSimConfig({ SIM_CONTROL_PORT: '0', SIM_PUSH_PORT: '0', SIM_SMS_PORT: '0', SIM_EMAIL_PORT: '0', TRACKING_STORES_PORT: '0', SIM_LATENCY_MS: '1' }),
  );
  admin = new Redis(redis.url);
  env = {
    SIM_CONTROL_URL: sims.controlUrl,
    TRACKING_STORES_BASE_URL: sims.storesUrl,
    REDIS_URL: redis.url,
    CHAOS_HTTP_TIMEOUT_MS: '2000',
    CHAOS_REDIS_TIMEOUT_MS: '1000',
  };
});
afterAll(async () => {
  for (const s of spawned) await s.stop();
  admin?.disconnect();
  await sims?.close();
  await redis?.stop();
});
afterEach(async () => {
  errors.length = 0;
  for (const channel of ['push', 'sms', 'email'] as const) await sims.fleet.restore(channel);
});

async function chaos(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runChaos(argv, {
    out: (t) => {
      out.push(t);
    },
    err: (t) => {
      err.push(t);
    },
    env,
    hostname: hostname(),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function send(channel: 'push' | 'sms' | 'email', key: string): Promise<{ status: number; ms: number } | { error: string }> {
  const started = performance.now();
  try {
    const res = await fetch(`${sims.providerUrls[channel]}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ to: `${key}@example.com`, message: { body: 'x' } }),
    });
    await res.text();
    return { status: res.status, ms: performance.now() - started };
  } catch (error) {
    return { error: String((error as { cause?: { code?: string } }).cause?.code ?? error) };
  }
}

it('kill-channel: the provider refuses connections; restore brings it back', async () => {
  const killed = await chaos('kill-channel', 'push');
  expect(killed).toMatchObject({ code: 0 });
  expect(killed.out).toMatch(/push\s+DOWN/);
  expect(await send('push', 'k1')).toEqual({ error: 'ECONNREFUSED' });
  const restored = await chaos('restore', 'push');
  expect(restored.code).toBe(0);
  expect(await send('push', 'k2')).toMatchObject({ status: expect.any(Number) });
});

it('break-channel: transient errors at the given rate', async () => {
  expect((await chaos('break-channel', 'sms', '--rate', '1')).code).toBe(0);
  for (let i = 0; i < 5; i += 1) expect(await send('sms', `b${i}`)).toMatchObject({ status: 503 });
});

it('slow-channel: every call takes the extra time', async () => {
  expect((await chaos('slow-channel', 'email', '--ms', '300')).code).toBe(0);
  const answer = await send('email', 's1');
  expect(answer).toMatchObject({ status: expect.any(Number) });
  expect((answer as { ms: number }).ms).toBeGreaterThanOrEqual(290);
});

const tariffMode = async () => ((await (await fetch(`${sims.storesUrl}/control/stats`)).json()) as { tariffMode: string }).tariffMode;

it('slow-store tariff: AY10 on the tariff store; restore tariff ends it', async () => {
  const slowed = await chaos('slow-store', 'tariff');
  expect(slowed).toMatchObject({ code: 0, out: expect.stringMatching(/tariff store: SLOW/) });
  expect(await tariffMode()).toBe('slow');
  expect((await chaos('status')).out).toMatch(/tariff SLOW/);
  expect((await chaos('restore', 'tariff')).code).toBe(0);
  expect(await tariffMode()).toBe('healthy');
});

it('restore all undoes every fault at once', async () => {
  await chaos('kill-channel', 'push');
  await chaos('break-channel', 'sms', '--rate', '0.5');
  await chaos('slow-channel', 'email', '--ms', '1000');
  await chaos('slow-store', 'tariff');
  const result = await chaos('restore', 'all');
  expect(result.code).toBe(0);
  expect(await tariffMode()).toBe('healthy');
  for (const channel of ['push', 'sms', 'email'] as const) {
    expect(sims.fleet.status()[channel]).toMatchObject({ mode: 'up', listening: true, slowMs: 0 });
  }
  expect(sims.fleet.status().sms?.transientRate).toBe(0.02);
});

it('a command whose answer is lost half way leaves nothing broken', async () => {
  // A proxy that forwards the fault to the simulators but drops the answer (the request was applied).
  const proxy: Server = createServer((req, res) => {
    const upstream = httpRequest(`${sims.controlUrl}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      if (req.url?.endsWith('/restore')) {
        res.writeHead(answer.statusCode ?? 500, answer.headers);
        answer.pipe(res);
      } else {
        answer.resume();
        answer.once('end', () => req.socket.destroy());
      }
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  try {
    const address = proxy.address() as { port: number };
    const result = await runChaos(['kill-channel', 'push', '--control-url', `http://127.0.0.1:${address.port}`], {
      out: () => undefined,
      err: (t) => {
        errors.push(t);
      },
      env,
    });
    expect(result).toBe(1);
    expect(sims.fleet.status().push).toMatchObject({ mode: 'up', listening: true });
    expect(errors.join('\n')).toMatch(/put back/);
  } finally {
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  }
});
it('status: channels, breakers and registered workers; exit 1 when a part is unreachable', async () => {
  await chaos('kill-channel', 'sms');
  // Trip the push breaker through a real gate.
  const connection = createRedis(redis.url, 'producer');
  const gate = createBreakerGate({
    redis: connection,
    registry: new Registry(),
    logger: pino({ level: 'silent' }),
    config: {
      enabled: true,
      windowMs: 10_000,
      windowSlots: 10,
      minCalls: 5,
      failureRatio: 0.5,
      openMs: 60_000,
      probes: 1,
      probeSuccesses: 1,
      probeLeaseMs: 1_000,
      cacheMs: 0,
      redisTimeoutMs: 500,
    },
  });
  await waitFor('gate connection', () => connection.status === 'ready');
  for (let i = 0; i < 5; i += 1) await (await gate.acquire('push'))?.release('transient');
  connection.disconnect();

  const text = await chaos('status');
  expect(text.code).toBe(0);
  expect(text.out).toMatch(/sms\s+DOWN/);
  expect(text.out).toMatch(/push\s+OPEN/);
  expect(text.out).toMatch(/email\s+closed/);
  const json = await chaos('status', '--json');
  expect(JSON.parse(json.out)).toMatchObject({ channels: { sms: { mode: 'down' } }, errors: [] });

  const partial = await runChaos(['status', '--control-url', 'http://127.0.0.1:9'], { out: () => undefined, err: () => undefined, env });
  expect(partial).toBe(1);
  await admin.flushall();
});

it('redis-pause: every client waits for the pause, which ends by itself', async () => {
  const result = await chaos('redis-pause', '--ms', '600');
  expect(result.code).toBe(0);
  const started = performance.now();
  await admin.ping();
  expect(performance.now() - started).toBeGreaterThanOrEqual(400);
});

it('kill-worker: SIGKILLs a registered worker running the role, and forgets it', async () => {
  const push = await spawnTs('test/chaos/fixtures/registered-worker.ts', { REDIS_URL: redis.url, WORKER_ROLES: 'push' }, /registered/);
  spawned.push(push);
  const none = await chaos('kill-worker', '--role', 'email');
  expect(none.code).toBe(1);
  expect(none.err).toMatch(/no registered worker runs role email/);

  const result = await chaos('kill-worker', '--role', 'push');
  expect(result.code).toBe(0);
  expect(result.out).toMatch(new RegExp(`killed worker pid ${push.child.pid}`));
  expect(await push.exited).toEqual({ code: null, signal: 'SIGKILL' });
  expect(await listProcesses(admin)).toEqual([]);
  expect((await chaos('kill-worker')).code).toBe(1);
});

it('kill-worker refuses processes registered from another host', async () => {
  const other = await spawnTs('test/chaos/fixtures/registered-worker.ts', { REDIS_URL: redis.url, WORKER_ROLES: 'sms' }, /registered/);
  spawned.push(other);
  const result = await runChaos(['kill-worker'], {
    out: () => undefined,
    err: (t) => {
      errors.push(t);
    },
    env,
    hostname: 'another-host',
  });
  expect(result).toBe(1);
  expect(other.child.exitCode).toBeNull();
  expect(errors.at(-1)).toMatch(/registered on other hosts/);
});
