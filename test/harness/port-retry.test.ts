import { createServer, type Server } from 'node:net';
import {
  DEFAULT_ENTRIES,
  ensurePostgresBinaries,
  freePort,
  freePorts,
  isPortTaken,
  ProcessGroup,
  redisAnswers,
  retryOnPortTaken,
  startAppOnFreePorts,
  startPrivatePostgres,
  startPrivateRedis,
  type PrivatePostgres,
  type PrivateRedis,
} from '@notify/platform-kit';

/**
 * Every server the kit starts on a port it found free is started again on a fresh port when
 * another process binds that port first. Each test holds the first port with a socket of its own.
 */
let held: Server;
let heldPort: number;

beforeEach(async () => {
  // It takes connections (a readiness probe on that port reaches it) and drops them.
  held = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
  heldPort = (held.address() as { port: number }).port;
});
afterEach(async () => {
  await new Promise((resolve) => held.close(resolve));
});

it('redis-server on a held port fails with PortTakenError, and the retry starts it on a fresh one', async () => {
  const taken = await startPrivateRedis({ port: heldPort }).catch((error: unknown) => error);
  expect(isPortTaken(taken)).toBe(true);
  const group = new ProcessGroup();
  let redis: PrivateRedis | undefined;
  try {
    // A shared group stays usable after the failed attempt, and does not count it.
    redis = await retryOnPortTaken('redis-server', async (attempt) => startPrivateRedis({ group, port: attempt === 1 ? heldPort : await freePort() }));
    expect(redis.port).not.toBe(heldPort);
    expect(await redisAnswers(redis.url, 1_000)).toBe(true);
    expect(group.count).toBe(1);
    expect(group.unexpectedExit).toBeUndefined();
  } finally {
    await redis?.stop();
    await group.stopAll();
  }
});

it('postgres on a held port fails with PortTakenError, and the retry starts it on a fresh one', async () => {
  await ensurePostgresBinaries({ env: process.env, log: (line) => process.stderr.write(`[harness test] ${line}\n`) });
  let pg: PrivatePostgres | undefined;
  const tried: number[] = [];
  try {
    pg = await retryOnPortTaken('postgres', async (attempt) => {
      const port = attempt === 1 ? heldPort : await freePort();
      tried.push(port);
      return startPrivatePostgres({ port });
    });
    expect(tried).toEqual([heldPort, pg.port]);
  } finally {
    await pg?.stop();
  }
}, 120_000);

it('an app that exits with EADDRINUSE before it is ready is started again on fresh ports, the failed attempt forgotten', async () => {
  const group = new ProcessGroup();
  try {
    const started = await startAppOnFreePorts(group, {
      name: 'simulators',
      entry: DEFAULT_ENTRIES.simulators,
      ports: 5,
      // The first attempt's push provider port is held by the test's socket.
      choosePorts: async (count, attempt) => {
        const ports = await freePorts(count);
        return attempt === 1 ? [ports[0]!, heldPort, ...ports.slice(2)] : ports;
      },
      env: ([control, push, sms, email, stores]) => ({
        PATH: process.env.PATH,
        SIM_HOST: '127.0.0.1',
        SIM_CONTROL_PORT: String(control),
        SIM_PUSH_PORT: String(push),
        SIM_SMS_PORT: String(sms),
        SIM_EMAIL_PORT: String(email),
        TRACKING_STORES_PORT: String(stores),
        LOG_LEVEL: 'warn',
      }),
      readyUrl: ([control]) => `http://127.0.0.1:${control}/healthz`,
    });
    expect(started.ports).not.toContain(heldPort);
    expect(started.process.running).toBe(true);
    expect(group.count).toBe(1);
    expect(group.unexpectedExit).toBeUndefined();
  } finally {
    await group.stopAll();
  }
}, 120_000);
