import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { Deadline } from './deadline';
import { isCancelled, isDeadlineExceeded, isDependencyFailed, type BudgetError } from './errors';
import { budgetedGetJson } from './http-client';
import { createKeepAliveAgent } from './keep-alive-agent';
import { deadlineMiddleware, requestDeadline } from './middleware';

/**
 * Real HTTP on 127.0.0.1: the client's deadline travels as a header, the server's
 * middleware turns it (and the client's disconnect) into a signal the handler observes.
 */
interface Seen {
  budgetMs: number;
  reason?: unknown;
  finishedWork: boolean;
}

async function waitUntil(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('budgetedGetJson + deadlineMiddleware over real HTTP', () => {
  const seen: Seen[] = [];
  const agent = createKeepAliveAgent({ connections: 8 });
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.use(deadlineMiddleware({ step: 'store', transitAllowanceMs: 2 }));
    app.get('/work/:ms', (req, res) => {
      const deadline = requestDeadline(res);
      const entry: Seen = { budgetMs: deadline.budgetMs, finishedWork: false };
      seen.push(entry);
      const timer = setTimeout(() => {
        entry.finishedWork = true;
        if (!res.writableEnded && !res.destroyed) res.json({ waited: Number(req.params.ms) });
      }, Number(req.params.ms));
      deadline.signal.addEventListener('abort', () => {
        entry.reason = deadline.signal.reason;
        clearTimeout(timer); // the handler's work observes the signal and stops
        if (isDeadlineExceeded(deadline.signal.reason) && !res.destroyed) {
          res.status(504).json({ error: { code: 'DEADLINE_EXCEEDED', message: 'stopped at the propagated deadline' } });
        }
      });
    });
    app.get('/status/:code', (req, res) => {
      const code = Number(req.params.code);
      res.status(code).json({ error: { code: code === 504 ? 'DEADLINE_EXCEEDED' : 'BOOM', message: 'x' } });
    });
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    seen.length = 0;
  });

  it('propagates the remaining budget, less the transit allowance, and returns the JSON body', async () => {
    // A budget a busy machine cannot spend on the way: what arrives is the remaining time, less the allowance.
    const deadline = new Deadline({ budgetMs: 10_000, step: 'tariff' });
    await expect(budgetedGetJson(`${base}/work/1`, { deadline, dispatcher: agent })).resolves.toEqual({ waited: 1 });
    expect(seen[0]?.budgetMs).toBeGreaterThan(9_000);
    expect(seen[0]?.budgetMs).toBeLessThanOrEqual(9_998);
    deadline.dispose();
  });

  it('rejects a malformed or negative header with 400 naming the header', async () => {
    for (const value of ['-5', 'soon']) {
      const res = await fetch(`${base}/work/1`, { headers: { 'x-request-timeout-ms': value } });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; header: string } };
      expect(body.error).toMatchObject({ code: 'INVALID_DEADLINE_HEADER', header: 'x-request-timeout-ms' });
    }
  });

  it('aborts the request when the caller gives up, and the server sees it as a cancellation', async () => {
    const deadline = new Deadline({ budgetMs: 5_000, step: 'tariff' });
    const call = budgetedGetJson(`${base}/work/3000`, { deadline, dispatcher: agent });
    await waitUntil(() => seen.length === 1);
    deadline.cancel('client went away');
    const error = (await call.catch((e: unknown) => e)) as BudgetError;
    expect(isCancelled(error)).toBe(true);
    await waitUntil(() => seen[0]?.reason !== undefined);
    expect(isCancelled(seen[0]?.reason)).toBe(true);
    expect(seen[0]?.finishedWork).toBe(false);
  });

  it('times out at the deadline; the server stops at the propagated deadline too', async () => {
    const deadline = new Deadline({ budgetMs: 50, step: 'tariff' });
    const started = performance.now();
    const error = await budgetedGetJson(`${base}/work/5000`, { deadline, dispatcher: agent }).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(2_500); // cut at 50 ms, not after the 5 s of work
    expect(error).toMatchObject({ code: 'DEADLINE_EXCEEDED', step: 'tariff' });
    await waitUntil(() => seen[0]?.reason !== undefined);
    expect(seen[0]?.finishedWork).toBe(false);
  });

  it('with cancel off, stops waiting but leaves the request running at the server', async () => {
    const deadline = new Deadline({ budgetMs: 40, step: 'tariff' });
    const error = await budgetedGetJson(`${base}/work/120`, { deadline, dispatcher: agent, cancel: false, headers: {} }).catch((e: unknown) => e);
    expect(isDeadlineExceeded(error)).toBe(true);
    // The server learns of the give-up only from the propagated deadline (no disconnect).
    await waitUntil(() => seen[0]?.reason !== undefined);
    expect(isDeadlineExceeded(seen[0]?.reason)).toBe(true);
  });

  it('maps statuses: 504 DEADLINE_EXCEEDED is the step running out, anything else a dependency failure', async () => {
    const deadline = new Deadline({ budgetMs: 1000, step: 'tariff' });
    expect(await budgetedGetJson(`${base}/status/504`, { deadline, dispatcher: agent }).catch((e: unknown) => e)).toMatchObject({
      code: 'DEADLINE_EXCEEDED',
      step: 'tariff',
    });
    const failed = await budgetedGetJson(`${base}/status/500`, { deadline, dispatcher: agent }).catch((e: unknown) => e);
    expect(isDependencyFailed(failed)).toBe(true);
    expect(failed).toMatchObject({ upstreamStatus: 500, step: 'tariff', message: 'tariff answered 500 BOOM' });
    deadline.dispose();
  });

  it('names the origin when the dependency is unreachable', async () => {
    const deadline = new Deadline({ budgetMs: 1000, step: 'tariff' });
    const error = await budgetedGetJson('http://127.0.0.1:1/x', { deadline }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'DEPENDENCY_FAILED', step: 'tariff' });
    expect((error as Error).message).toMatch(/unreachable at http:\/\/127\.0\.0\.1:1/);
    deadline.dispose();
  });
});
