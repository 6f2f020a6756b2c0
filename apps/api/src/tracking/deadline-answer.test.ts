import express from 'express';
import pino from 'pino';
import { Registry } from 'prom-client';
import request from 'supertest';
import { LoadShedder, ManualTime, type LoopDelaySampler, type StepContext } from '@notify/budget-chain';
import { loadTrackingConfig } from './config';
import type { TrackingStores } from './http-stores';
import { createTrackingRouter, type TrackingRouter } from './router';

/**
 * The answer leaves by the deadline, on a logical clock: the stores are fakes that take
 * their time on a ManualTime, the load shedder reads a fake loop-delay sampler. Real HTTP
 * carries the answer; no test timing depends on the machine.
 */
const DELIVERY = { shipmentId: 'SHP-1', status: 'in_transit' as const, updatedAt: '2026-01-01T00:00:00Z' };
const TARIFF = { tariffId: 't1', currency: 'TRY', baseMinor: 1000, perKgMinor: 250 };
const MEASUREMENT = { weightGrams: 1200, volumetricGrams: 1500 };

interface Harness {
  app: express.Express;
  time: ManualTime;
  registry: Registry;
  shedder: LoadShedder;
  /** Resolves when the delivery-ops read has started (the handler is running). */
  started(): Promise<void>;
  close(): Promise<void>;
}

function start(options: { loopDelayMs: number; tariffMs: number; measurementMs: number; deliveryMs?: number; maxInFlight?: number }): Harness {
  const time = new ManualTime();
  const registry = new Registry();
  let delayMs = options.loopDelayMs;
  const sampler: LoopDelaySampler = { sample: () => delayMs, stop: () => undefined };
  const shedder = new LoadShedder({ maxLoopDelayMs: 40, maxInFlight: options.maxInFlight ?? 0, windowMs: 1e9, sampler, timer: time });
  shedder.refresh();
  delayMs = 0;
  const waiters: (() => void)[] = [];
  const read =
    <T>(ms: number, value: T) =>
    (context: StepContext): Promise<T> =>
      time.sleep(ms, context.signal).then(() => value);
  const stores: TrackingStores = {
    deliveryOps: (context) => {
      waiters.splice(0).forEach((wake) => wake());
      return read(options.deliveryMs ?? 8, DELIVERY)(context);
    },
    tariff: read(options.tariffMs, TARIFF),
    measurement: read(options.measurementMs, MEASUREMENT),
  };
  const config = loadTrackingConfig({ TRACKING_STORES_BASE_URL: 'http://127.0.0.1:1' });
  const router: TrackingRouter = createTrackingRouter({
    config,
    registry,
    logger: pino({ level: 'silent' }),
    clock: time,
    timer: time,
    loadShedder: shedder,
    stores,
  });
  const app = express();
  app.use('/v1/tracking', router);
  return {
    app,
    time,
    registry,
    shedder,
    started: () => new Promise<void>((resolve) => waiters.push(resolve)),
    close: async () => {
      shedder.stop();
      await router.close();
    },
  };
}

/** GET /v1/tracking/<id>; once its handler runs, the logical clock moves `ms` on; then its answer. */
async function answerAfter(h: Harness, ms: number, id = 'SHP-1'): Promise<request.Response> {
  const started = h.started();
  const answer = request(h.app)
    .get(`/v1/tracking/${id}`)
    .then((r) => r);
  await started;
  await h.time.advanceBy(ms);
  return answer;
}

describe('tracking answers by its deadline', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('with 30 ms of loop delay measured, the guard answers 504 at 170 ms (200 - 10 reserve - 20 capped delay), naming the read that ran out first', async () => {
    h = start({ loopDelayMs: 30, tariffMs: 400, measurementMs: 150 });
    const res = await answerAfter(h, 170);
    expect(res.status).toBe(504);
    // Tariff ran out of its 60 ms share; measurement is still running behind it: tariff is the slow step.
    expect(res.body.error).toMatchObject({ code: 'DEADLINE_EXCEEDED', step: 'tariff' });
    expect(res.body.error.message).toMatch(/tariff did not finish within its 60 ms \(policy weighted\); answered at the deadline/);
    expect(res.body.budget).toMatchObject({ answeredBy: 'deadline-guard', elapsedMs: 170, budgetMs: 200 });
    expect(await h.registry.metrics()).toContain('notify_tracking_requests_total{outcome="deadline_exceeded",policy="weighted"} 1');
  });

  it('when no read has run out yet, the guard names the one still running furthest past its time', async () => {
    h = start({ loopDelayMs: 30, tariffMs: 6, measurementMs: 12, deliveryMs: 400 });
    const res = await answerAfter(h, 170);
    expect(res.status).toBe(504);
    expect(res.body.error).toMatchObject({ code: 'DEADLINE_EXCEEDED', step: 'delivery-ops' });
    expect(res.body.error.message).toMatch(/delivery-ops still running after 170 ms \(180 ms allowed/);
  });

  it('on a punctual loop the query answers itself at the branch deadline (180 ms), before the guard at 190', async () => {
    h = start({ loopDelayMs: 0, tariffMs: 400, measurementMs: 150 });
    const res = await answerAfter(h, 185);
    expect(res.status).toBe(504);
    expect(res.body.error).toMatchObject({ code: 'DEADLINE_EXCEEDED', step: 'tariff' });
    expect(res.body.budget.answeredBy).toBeUndefined();
    expect(res.body.budget.elapsedMs).toBe(180);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('sheds with 503 OVERLOADED and Retry-After while the loop delay is above the threshold, before any read', async () => {
    h = start({ loopDelayMs: 60, tariffMs: 6, measurementMs: 12 });
    const res = await request(h.app).get('/v1/tracking/SHP-1');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body.error).toMatchObject({ code: 'OVERLOADED', reason: 'loop_delay' });
    const metrics = await h.registry.metrics();
    expect(metrics).toContain('notify_tracking_shed_total{reason="loop_delay"} 1');
    expect(metrics).toContain('notify_tracking_requests_total{outcome="shed",policy="weighted"} 1');
    // The next window is punctual again: admitted.
    h.shedder.refresh();
    expect((await answerAfter(h, 30, 'SHP-2')).status).toBe(200);
  });

  it('sheds with reason in_flight at the cap, and admits again once an answer has left', async () => {
    h = start({ loopDelayMs: 0, tariffMs: 6, measurementMs: 12, maxInFlight: 1 });
    const started = h.started();
    const first = request(h.app)
      .get('/v1/tracking/SHP-1')
      .then((r) => r);
    await started;
    const refused = await request(h.app).get('/v1/tracking/SHP-2');
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatchObject({ code: 'OVERLOADED', reason: 'in_flight' });
    await h.time.advanceBy(30);
    expect((await first).status).toBe(200);
    // The first response's 'close' (a tick after it was written, before the client read it) freed its place.
    expect(h.shedder.inFlight).toBe(0);
    expect((await answerAfter(h, 30, 'SHP-3')).status).toBe(200);
  });
});
