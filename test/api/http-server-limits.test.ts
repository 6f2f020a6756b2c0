import type { Server } from 'node:http';
import { connect } from 'node:net';
import { DEFAULT_HTTP_SERVER_LIMITS, createLimitedServer, httpServerLimitsEnvShape, listenOn, toHttpServerLimits } from '@notify/runtime';
import { waitFor } from '@notify/platform-kit';
import { z } from 'zod';
import { rawExchange, trickle } from './raw-http';

/**
 * The one server factory every process uses (api, worker metrics, simulators), against real
 * sockets. Limits are scaled down (hundreds of ms) so a test waits seconds, not minutes.
 */
const LIMITS = { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 200, maxConnections: 3 };
/** Far beyond every limit above, far below node's own defaults (60 s headers, 300 s request). */
const BOUND_MS = 8_000;

let server: Server;
let url: string;
beforeAll(async () => {
  // Reads the body, then answers: what body-parser does.
  server = createLimitedServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  }, LIMITS);
  url = `http://127.0.0.1:${await listenOn(server, 0, '127.0.0.1')}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it('closes a connection whose headers never end with a 408 in the documented shape', async () => {
  const started = performance.now();
  const result = await rawExchange(url, (socket) => socket.write('GET / HTTP/1.1\r\nHost: x\r\nX-Partial: '), BOUND_MS);
  expect(result.status).toBe(408);
  expect(result.body).toEqual({ error: { code: 'REQUEST_TIMEOUT', message: expect.any(String) } });
  expect(performance.now() - started).toBeGreaterThanOrEqual(LIMITS.headersTimeoutMs - 50);
});

it('cuts a trickled body at the request timeout', async () => {
  const result = await rawExchange(
    url,
    (socket) => {
      socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n');
      trickle(socket, 'x', 50, 400); // 20 s of trickling at most: far past the 600 ms limit
    },
    BOUND_MS,
  );
  expect(result.status).toBe(408);
  expect(result.body?.error?.code).toBe('REQUEST_TIMEOUT');
});

it("answers headers over node's size limit with 431 in the documented shape", async () => {
  const result = await rawExchange(url, (socket) => socket.write(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`), BOUND_MS);
  expect(result.status).toBe(431);
  expect(result.body).toEqual({ error: { code: 'HEADERS_TOO_LARGE', message: expect.any(String) } });
});

it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
  // The client never closes: the server does, once the socket sat idle for the keep-alive timeout.
  const result = await rawExchange(url, (socket) => socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'), BOUND_MS);
  expect(result.status).toBe(200);
  expect(result.response).toMatch(/Connection: keep-alive/i);
});

it('refuses connections beyond the cap', async () => {
  const held = await Promise.all(
    Array.from(
      { length: LIMITS.maxConnections },
      () =>
        new Promise<ReturnType<typeof connect>>((resolve) => {
          const socket = connect(Number(new URL(url).port), '127.0.0.1', () => resolve(socket));
          socket.on('error', () => undefined);
        }),
    ),
  );
  await waitFor(
    'the server to count the held connections',
    () =>
      new Promise<boolean>((resolve) => {
        server.getConnections((_error, count) => resolve(count === LIMITS.maxConnections));
      }),
    5_000,
    20,
  );
  const refused = await rawExchange(url, (socket) => socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'), BOUND_MS);
  expect(refused.status).toBeUndefined(); // dropped at accept, no answer
  for (const socket of held) socket.destroy();
});

describe('env', () => {
  const parse = (env: Record<string, string>) => toHttpServerLimits(z.object(httpServerLimitsEnvShape).parse(env));

  it('defaults to at most 10 s of headers, 30 s per request, 5 s idle keep-alive', () => {
    expect(parse({})).toEqual(DEFAULT_HTTP_SERVER_LIMITS);
    expect(DEFAULT_HTTP_SERVER_LIMITS.headersTimeoutMs).toBeLessThanOrEqual(10_000);
    expect(DEFAULT_HTTP_SERVER_LIMITS.requestTimeoutMs).toBeLessThanOrEqual(30_000);
    expect(DEFAULT_HTTP_SERVER_LIMITS.keepAliveTimeoutMs).toBeLessThanOrEqual(5_000);
  });

  it('refuses headers allowed longer than the whole request', () => {
    expect(() => parse({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' })).toThrow(/must not exceed HTTP_REQUEST_TIMEOUT_MS/);
  });
});
