import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { rawExchange, trickle } from './raw-http';

/**
 * Hostile clients against the running platform (api, a worker, the simulators) with real
 * sockets: slow clients are cut off on every server, a declared oversized body is refused
 * before it is sent, a hostile body's validation error stays small, /metrics is off the
 * public port, and the answers node or bull-board produce keep the documented error shape.
 */
const HTTP_ENV = { HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '700', HTTP_KEEP_ALIVE_TIMEOUT_MS: '300' };
/** Far beyond the limits above, far below node's defaults (60 s headers, 300 s request). */
const BOUND_MS = 8_000;
const AUTH = `Authorization: Bearer ${TEST_API_KEY}\r\n`;

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ env: HTTP_ENV, simEnv: HTTP_ENV });
}, 60_000);
afterAll(async () => {
  await platform?.stop();
});

const partialHeaders = (socket: import('node:net').Socket) => socket.write(`POST /v1/notifications HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Ty`);

describe('slow clients', () => {
  it('every server closes a connection whose headers never end (api, api metrics, worker metrics, providers, control, stores)', async () => {
    const origin = (url: string) => new URL(url).origin;
    const servers: Record<string, string> = {
      api: platform.api.url,
      'api metrics': origin(platform.api.metricsUrl),
      'worker metrics': origin(platform.workers[0]!.metricsUrl),
      'push provider': platform.sims.providerUrls.push,
      'email provider': platform.sims.providerUrls.email,
      'simulators control': platform.sims.controlUrl,
      'tracking stores': platform.sims.storesUrl,
    };
    const results = await Promise.all(
      Object.entries(servers).map(async ([name, url]) => [name, (await rawExchange(url, partialHeaders, BOUND_MS)).status] as const),
    );
    expect(Object.fromEntries(results)).toEqual(Object.fromEntries(Object.keys(servers).map((name) => [name, 408])));
  });

  it('the api cuts a trickled body at the request timeout, answering 408 in the documented shape', async () => {
    const result = await rawExchange(
      platform.api.url,
      (socket) => {
        socket.write(`POST /v1/notifications HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nContent-Length: 50000\r\n\r\n{"eventId":"`);
        trickle(socket, 'a', 50, 400);
      },
      BOUND_MS,
    );
    expect(result.status).toBe(408);
    expect(result.body).toEqual({ error: { code: 'REQUEST_TIMEOUT', message: expect.any(String) } });
  });
});

describe('oversized bodies', () => {
  it('answers a declared Content-Length over the limit with 413 before any of the body is sent', async () => {
    const result = await rawExchange(
      platform.api.url,
      (socket) => {
        socket.write(`POST /v1/notifications HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/json\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n`);
        // Not one byte of the body: the answer must not wait for it.
      },
      BOUND_MS,
    );
    expect(result.status).toBe(413);
    expect(result.response).toMatch(/\r\nConnection: close\r\n/i);
    expect(result.body?.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('keeps the validation error of a 1.7 MB body of unknown keys small', async () => {
    const body: Record<string, number> = {};
    for (let i = 0; i < 45_000; i += 1) body[`unknown-key-${i}-${'k'.repeat(12)}`] = i;
    const text = JSON.stringify(body);
    expect(text.length).toBeGreaterThan(1_700_000);
    expect(text.length).toBeLessThan(2 * 1024 * 1024); // under the default body limit: it reaches validation
    const res = await fetch(`${platform.api.url}/v1/notifications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: text,
    });
    const answer = await res.text();
    expect(res.status).toBe(400);
    expect(answer.length).toBeLessThan(4_000);
    const parsed = JSON.parse(answer) as { error: { code: string; details: { field: string; reason: string }[] } };
    expect(parsed.error.code).toBe('VALIDATION_FAILED');
    expect(parsed.error.details.length).toBeLessThanOrEqual(21);
    expect(parsed.error.details.some((d) => /and 44995 more/.test(d.reason))).toBe(true);
  });
});

describe('metrics listener', () => {
  it('serves /metrics on its own loopback listener, not on the public api port', async () => {
    expect((await fetch(`${platform.api.url}/metrics`)).status).toBe(404);
    const metrics = await fetch(platform.api.metricsUrl);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^# TYPE notify_intake_requests_total counter$/m);
    expect(new URL(platform.api.metricsUrl).hostname).toBe('127.0.0.1');
  });
});

describe('the documented error shape where the server answers for code it does not own', () => {
  it("bull-board's refusal of a write on the read-only board", async () => {
    const res = await fetch(`${platform.api.url}/admin/queues/api/queues/push-urgent/clean/completed`, {
      method: 'PUT',
      headers: { authorization: 'Bearer dev-admin-key-change-me' },
    });
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({ error: { code: 'METHOD_NOT_ALLOWED', message: expect.any(String) } });
  });

  it("bull-board's unknown queue", async () => {
    const res = await fetch(`${platform.api.url}/admin/queues/api/queues/no-such-lane/some-job`, {
      headers: { authorization: 'Bearer dev-admin-key-change-me' },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
  });

  it("node's 431 for oversized headers", async () => {
    const result = await rawExchange(
      platform.api.url,
      (socket) => socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
      BOUND_MS,
    );
    expect(result.status).toBe(431);
    expect(result.body).toEqual({ error: { code: 'HEADERS_TOO_LARGE', message: expect.any(String) } });
  });
});
