import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { Deadline } from './deadline';
import { isCancelled, isDeadlineExceeded } from './errors';
import { budgetedGetJson } from './http-client';
import { createKeepAliveAgent } from './keep-alive-agent';
import { deadlineMiddleware, requestDeadline } from './middleware';

async function waitUntil(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * cancelGraceMs over real HTTP on 127.0.0.1: an expired read whose server stops at the
 * propagated deadline keeps its keep-alive socket; one whose server ignores it loses the
 * socket after the grace; a cancellation closes at once whatever the grace.
 */
describe('budgetedGetJson with cancelGraceMs', () => {
  let server: Server;
  let base: string;
  let connections = 0;
  /** Requests whose socket closed before an answer was written. */
  let cutOff = 0;
  let honoured = 0;
  let ignoring = 0;
  /** The client port of each request served by /ok and /ignores, in order: which socket carried it. */
  const ports: (number | undefined)[] = [];

  beforeAll(async () => {
    const app = express();
    app.use(deadlineMiddleware({ step: 'store', transitAllowanceMs: 1 }));
    app.get('/ok', (req, res) => {
      ports.push(req.socket.remotePort);
      res.json({ ok: true });
    });
    // Honours its propagated deadline: stops and answers 504 at it.
    app.get('/honours/:ms', (req, res) => {
      const deadline = requestDeadline(res);
      const timer = setTimeout(() => res.json({ waited: Number(req.params.ms) }), Number(req.params.ms));
      deadline.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        if (isDeadlineExceeded(deadline.signal.reason) && !res.destroyed) {
          honoured += 1;
          res.status(504).json({ error: { code: 'DEADLINE_EXCEEDED', message: 'stopped at the propagated deadline' } });
        }
      });
    });
    // Ignores it: works to the end unless the socket closes.
    app.get('/ignores/:ms', (req, res) => {
      ignoring += 1;
      ports.push(req.socket.remotePort);
      const timer = setTimeout(() => res.json({ waited: Number(req.params.ms) }), Number(req.params.ms));
      res.once('close', () => {
        clearTimeout(timer);
        if (!res.writableFinished) cutOff += 1;
      });
    });
    server = app.listen(0, '127.0.0.1');
    server.on('connection', () => {
      connections += 1;
    });
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    cutOff = 0;
    honoured = 0;
    ignoring = 0;
  });

  it('stops waiting at the deadline and reuses the socket when the server answers at its propagated deadline', async () => {
    const agent = createKeepAliveAgent({ connections: 1 });
    const before = connections;
    try {
      await expect(budgetedGetJson(`${base}/ok`, { deadline: new Deadline({ budgetMs: 10_000, step: 'warm' }), dispatcher: agent })).resolves.toEqual({
        ok: true,
      });
      const deadline = new Deadline({ budgetMs: 50, step: 'tariff' });
      const error = await budgetedGetJson(`${base}/honours/10000`, { deadline, dispatcher: agent, cancelGraceMs: 60_000 }).catch((e: unknown) => e);
      expect(isDeadlineExceeded(error)).toBe(true);
      expect(error).toMatchObject({ step: 'tariff' });
      await waitUntil(() => honoured === 1);
      // The next call goes over the same socket: the 504 was drained, nothing was closed.
      await expect(budgetedGetJson(`${base}/ok`, { deadline: new Deadline({ budgetMs: 10_000, step: 'after' }), dispatcher: agent })).resolves.toEqual({
        ok: true,
      });
      expect(connections - before).toBe(1);
      expect(cutOff).toBe(0);
    } finally {
      await agent.destroy();
    }
  });

  it('closes the socket after the grace when the server ignores its deadline', async () => {
    const agent = createKeepAliveAgent({ connections: 1 });
    try {
      const deadline = new Deadline({ budgetMs: 30, step: 'tariff' });
      const error = await budgetedGetJson(`${base}/ignores/60000`, { deadline, dispatcher: agent, cancelGraceMs: 20 }).catch((e: unknown) => e);
      expect(isDeadlineExceeded(error)).toBe(true);
      await waitUntil(() => cutOff === 1);
    } finally {
      await agent.destroy();
    }
  });

  it('never sends a read still queued for a socket when its caller gives up, and leaves the socket open', async () => {
    const agent = createKeepAliveAgent({ connections: 1 });
    const servedBefore = ignoring;
    const portsBefore = ports.length;
    try {
      // The one socket is busy with a read that the server answers after 300 ms.
      const busy = budgetedGetJson(`${base}/ignores/300`, { deadline: new Deadline({ budgetMs: 10_000, step: 'busy' }), dispatcher: agent });
      await waitUntil(() => ignoring === servedBefore + 1);
      const deadline = new Deadline({ budgetMs: 60_000, step: 'queued' });
      const queued = budgetedGetJson(`${base}/ignores/1`, { deadline, dispatcher: agent, cancelGraceMs: 100 });
      deadline.cancel('client went away');
      expect(isCancelled(await queued.catch((e: unknown) => e))).toBe(true);
      await expect(busy).resolves.toEqual({ waited: 300 });
      await expect(budgetedGetJson(`${base}/ok`, { deadline: new Deadline({ budgetMs: 10_000, step: 'after' }), dispatcher: agent })).resolves.toEqual({
        ok: true,
      });
      // The queued read never reached the server, and the busy read's socket carried the next one.
      expect(ignoring).toBe(servedBefore + 1);
      expect(cutOff).toBe(0);
      const [busyPort, nextPort] = ports.slice(portsBefore);
      expect(nextPort).toBe(busyPort);
    } finally {
      await agent.destroy();
    }
  });

  it('closes at once on a cancellation, whatever the grace', async () => {
    const agent = createKeepAliveAgent({ connections: 1 });
    try {
      const deadline = new Deadline({ budgetMs: 60_000, step: 'tariff' });
      const call = budgetedGetJson(`${base}/ignores/60000`, { deadline, dispatcher: agent, cancelGraceMs: 60_000 });
      await waitUntil(() => ignoring === 1);
      deadline.cancel('client went away');
      expect(isCancelled(await call.catch((e: unknown) => e))).toBe(true);
      await waitUntil(() => cutOff === 1); // long before the 60 s grace
    } finally {
      await agent.destroy();
    }
  });
});
