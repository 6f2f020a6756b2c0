import { EventEmitter, getEventListeners } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { Deadline } from './deadline';
import { ManualTime } from './manual-time';
import { deadlineMiddleware, requestDeadline } from './middleware';
import { runStep } from './run-step';

const N = 20_000;
/** Each case runs ~1-2 s on a quiet 2-core machine; under a CPU hog one took > 30 s (it counts listeners, not time). */
const TIMEOUT_MS = 120_000;
const listeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;
/** Everything linked to a deadline: its children and races (callbacks) and any signal listener. */
const links = (deadline: Deadline): number => deadline.linkedCount + listeners(deadline.signal);

/** Just enough of an Express response for the middleware: locals, close, writableFinished. */
class FakeResponse extends EventEmitter {
  locals: Record<string, unknown> = {};
  writableFinished = false;
  status(): this {
    return this;
  }
  json(): this {
    return this;
  }
}

describe('no listener growth on long-lived parents', () => {
  it(
    `over ${N.toLocaleString('en')} child derivations (disposed, expired and cancelled)`,
    async () => {
      const time = new ManualTime();
      const parent = new Deadline({ budgetMs: Number.POSITIVE_INFINITY, clock: time, timer: time });
      let peak = 0;
      for (let i = 0; i < N; i += 1) {
        const child = parent.child('step', 50);
        peak = Math.max(peak, links(parent));
        if (i % 3 === 1) child.cancel();
        child.dispose();
      }
      // Expiry path: children that run out of time unlink themselves too.
      const expiring = Array.from({ length: 1000 }, () => parent.child('step', 5));
      expect(links(parent)).toBe(1000);
      await time.advanceBy(5);
      await time.runAll();
      expect(expiring.every((d) => d.expired)).toBe(true);
      expect(peak).toBe(1);
      expect(links(parent)).toBe(0);
      expect(time.pending()).toBe(0);
    },
    TIMEOUT_MS,
  );

  it(
    `over ${N.toLocaleString('en')} budgeted steps`,
    async () => {
      const time = new ManualTime();
      const parent = new Deadline({ budgetMs: Number.POSITIVE_INFINITY, clock: time, timer: time });
      for (let i = 0; i < N; i += 1) {
        await runStep(parent, 'tariff', 60, async ({ deadline }) => {
          if (links(deadline) !== 1) throw new Error('the race should hold exactly one link on the step deadline');
          return i;
        });
      }
      expect(links(parent)).toBe(0);
      expect(time.pending()).toBe(0);
    },
    TIMEOUT_MS,
  );

  it(
    `over ${N.toLocaleString('en')} requests through the server middleware`,
    () => {
      const time = new ManualTime();
      const shutdown = new AbortController();
      const middleware = deadlineMiddleware({ clock: time, timer: time, parentSignal: shutdown.signal, transitAllowanceMs: 1 });
      let aborted = 0;
      for (let i = 0; i < N; i += 1) {
        const req = { headers: { 'x-request-timeout-ms': '173' } } as unknown as Request;
        const res = new FakeResponse();
        const next: NextFunction = () => undefined;
        middleware(req, res as unknown as Response, next);
        const deadline = requestDeadline(res as unknown as Response);
        if (i % 2 === 0) res.writableFinished = true; // finished normally; otherwise the client went away
        res.emit('close');
        if (deadline.aborted) aborted += 1;
      }
      expect(aborted).toBe(N / 2);
      expect(listeners(shutdown.signal)).toBe(0);
      expect(time.pending()).toBe(0);
    },
    TIMEOUT_MS,
  );
});
