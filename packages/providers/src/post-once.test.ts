import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { postOnce } from './post-once';

/** A loopback server: echoes the request (headers and body) back, after `?wait` ms when the path asks. */
let server: Server;
let origin: string;
const pools: Pool[] = [];
const timers = new Set<NodeJS.Timeout>();
const pool = (connections: number) => {
  const created = new Pool(origin, { connections });
  pools.push(created);
  return created;
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const wait = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('wait') ?? 0);
      const timer = setTimeout(() => {
        timers.delete(timer);
        res.writeHead(201, { 'content-type': 'application/json' });
        // Two writes: the handler must join the chunks.
        res.write(JSON.stringify({ key: req.headers['idempotency-key'], body: Buffer.concat(chunks).toString('utf8') }).slice(0, 5));
        res.end(JSON.stringify({ key: req.headers['idempotency-key'], body: Buffer.concat(chunks).toString('utf8') }).slice(5));
      }, wait);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const timer of timers) clearTimeout(timer);
  await Promise.all(pools.map((p) => p.destroy()));
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('postOnce (the simulators client without request()’s stream)', () => {
  it('answers the status and the whole body, with the headers and body sent', async () => {
    const answer = await postOnce(pool(2), {
      path: '/',
      headers: ['content-type', 'application/json', 'idempotency-key', 'k-1'],
      body: '{"to":"x"}',
      timeoutMs: 5_000,
    });
    expect(answer).toEqual({ ok: true, statusCode: 201, body: JSON.stringify({ key: 'k-1', body: '{"to":"x"}' }) });
  });

  it('a call that outlives its timeout on the socket is aborted and says so', async () => {
    const answer = await postOnce(pool(1), { path: '/?wait=2000', headers: [], body: '{}', timeoutMs: 100 });
    expect(answer).toMatchObject({ ok: false, timedOut: true });
  });

  it('a call whose timeout fires while it waits for a socket is aborted when it reaches one', async () => {
    const one = pool(1);
    const first = postOnce(one, { path: '/?wait=400', headers: [], body: '{}', timeoutMs: 5_000 });
    const queued = await postOnce(one, { path: '/', headers: [], body: '{}', timeoutMs: 50 });
    expect(queued).toMatchObject({ ok: false, timedOut: true });
    expect(await first).toMatchObject({ ok: true, statusCode: 201 });
  });

  it('a refused connection is an error, not a timeout', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = new Pool(`http://127.0.0.1:${port}`, { connections: 1 });
    pools.push(refused);
    const answer = await postOnce(refused, { path: '/', headers: [], body: '{}', timeoutMs: 5_000 });
    expect(answer).toMatchObject({ ok: false, timedOut: false, error: expect.objectContaining({ code: 'ECONNREFUSED' }) });
  });
});
