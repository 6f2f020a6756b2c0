import { createServer, type Server } from 'node:net';
import { freePort, freePorts } from './free-port';
import { ADDRESS_IN_USE, PortTakenError, retryOnPortTaken } from './port-retry';

/** A port held by another socket for the length of a test. */
async function hold(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

/** Listens on `port` the way an app does, resolving with the bind error, if any. */
function bind(port: number): Promise<NodeJS.ErrnoException | undefined> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', resolve);
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(undefined)));
  });
}

it('starts again on a fresh port when the one chosen is held by another socket, and only then', async () => {
  const held = await hold();
  try {
    const tried: number[] = [];
    const bound = await retryOnPortTaken('a listener', async (attempt) => {
      const port = attempt === 1 ? held.port : await freePort();
      tried.push(port);
      const error = await bind(port);
      if (error && ADDRESS_IN_USE.test(String(error))) throw new PortTakenError(`port ${port} taken`);
      if (error) throw error;
      return port;
    });
    expect(tried).toEqual([held.port, bound]);
    expect(bound).not.toBe(held.port);
  } finally {
    held.server.close();
  }
});

it('gives up after the attempts it was given, naming them; any other error is thrown at once', async () => {
  let calls = 0;
  await expect(
    retryOnPortTaken(
      'a listener',
      async () => {
        calls += 1;
        throw new PortTakenError('taken');
      },
      3,
    ),
  ).rejects.toThrow(/a listener: a port was taken on each of 3 attempts/);
  expect(calls).toBe(3);
  calls = 0;
  await expect(
    retryOnPortTaken('a listener', async () => {
      calls += 1;
      throw new Error('bad config');
    }),
  ).rejects.toThrow('bad config');
  expect(calls).toBe(1);
});

it('freePorts hands out distinct ports', async () => {
  const ports = await freePorts(12);
  expect(new Set(ports).size).toBe(12);
});
