import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runOpenLoop, sendEach } from './open-loop';

/** A stand-in intake: 202 with an id per notification, batch or single; `hold` delays every answer. */
let server: Server;
let url: string;
let requests: { path: string; count: number }[] = [];
let holdMs = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += String(chunk);
    });
    req.on('end', () => {
      const parsed = JSON.parse(body) as { notifications?: { eventId: string }[]; eventId?: string };
      const items = parsed.notifications ?? [parsed as { eventId: string }];
      requests.push({ path: req.url ?? '', count: items.length });
      const answer = parsed.notifications
        ? { accepted: items.length, results: items.map((n) => ({ id: `id-${n.eventId}`, httpStatus: 202 })) }
        : { id: `id-${parsed.eventId}` };
      setTimeout(() => {
        res.writeHead(parsed.notifications ? 200 : 202, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer));
      }, holdMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  requests = [];
  holdMs = 0;
});

const next = (i: number) => ({ eventId: `e${i}` });

it('sends exactly `count` notifications, in batches of those due per tick, and keeps every answer in order', async () => {
  const result = await runOpenLoop({
    apiUrl: url,
    apiKey: 'k',
    ratePerSecond: 400,
    count: 100,
    next,
    mode: 'batch',
    tickMs: 50,
    maxInFlight: 8,
    whenFull: 'skip',
    keepAnswers: true,
  });
  expect(result).toMatchObject({ offered: 100, accepted: 100, failed: 0, skippedForBackpressure: 0 });
  expect(requests.every((r) => r.path === '/v1/notifications/batch')).toBe(true);
  expect(requests.reduce((a, r) => a + r.count, 0)).toBe(100);
  expect(requests.length).toBeLessThan(100);
  expect(result.answers.map((a) => a.id)).toEqual(Array.from({ length: 100 }, (_, i) => `id-e${i}`));
});

it('is bounded in time: stops offering at `seconds`', async () => {
  const result = await runOpenLoop({ apiUrl: url, apiKey: 'k', ratePerSecond: 100, seconds: 0.3, next, mode: 'single', maxInFlight: 64, whenFull: 'skip' });
  expect(result.offered).toBe(30);
  expect(result.accepted).toBe(30);
});

it("at the in-flight bound 'skip' drops and counts, 'wait' sends everything late", async () => {
  holdMs = 300;
  const skipped = await runOpenLoop({ apiUrl: url, apiKey: 'k', ratePerSecond: 200, count: 20, next, mode: 'single', maxInFlight: 2, whenFull: 'skip' });
  expect(skipped.skippedForBackpressure).toBeGreaterThan(0);
  expect(skipped.accepted + skipped.skippedForBackpressure).toBe(20);
  const all = await sendEach(
    Array.from({ length: 6 }, (_, i) => next(i)),
    { apiUrl: url, apiKey: 'k', ratePerSecond: 200, maxInFlight: 2 },
  );
  expect(all.accepted).toBe(6);
  expect(all.maxLagMs).toBeGreaterThan(0);
  expect(all.answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202, 202]);
});

it('single POSTs faster than one per millisecond still let their answers in (the loop yields between sends)', async () => {
  // At 4,000/s the next POST is always due in under 1 ms: a loop that never yielded to I/O
  // skipped everything after the first `maxInFlight` and saw those answers only at the end.
  const result = await runOpenLoop({
    apiUrl: url,
    apiKey: 'k',
    ratePerSecond: 4_000,
    count: 400,
    next,
    mode: 'single',
    maxInFlight: 16,
    whenFull: 'wait',
  });
  expect(result).toMatchObject({ offered: 400, accepted: 400, failed: 0, skippedForBackpressure: 0 });
  expect(requests).toHaveLength(400);
});

it('spreads single POSTs round-robin over several intake instances (apiUrls)', async () => {
  // A second stand-in intake, counting what it got; the first one counts in `requests`.
  let second = 0;
  const other = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      second += 1;
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: `other-${second}` }));
    });
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  try {
    const result = await runOpenLoop({
      apiUrls: [url, otherUrl],
      apiKey: 'k',
      ratePerSecond: 1_000,
      count: 100,
      next,
      mode: 'single',
      maxInFlight: 16,
      whenFull: 'wait',
    });
    expect(result).toMatchObject({ offered: 100, accepted: 100, failed: 0 });
    expect(requests).toHaveLength(50);
    expect(second).toBe(50);
  } finally {
    await new Promise((resolve) => other.close(resolve));
  }
  await expect(
    runOpenLoop({ apiUrl: url, apiUrls: [url], apiKey: 'k', ratePerSecond: 1, count: 1, next, mode: 'single', maxInFlight: 1, whenFull: 'wait' }),
  ).rejects.toThrow(/apiUrl or apiUrls/);
});
