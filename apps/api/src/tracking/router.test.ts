import express from 'express';
import pino from 'pino';
import { Registry } from 'prom-client';
import request from 'supertest';
import { loadTrackingConfig } from './config';
import { createTrackingRouter, type TrackingRouter } from './router';

/** Input checks that must answer before any store is called (stores point at a closed port). */
describe('tracking router input checks', () => {
  let router: TrackingRouter;
  let app: express.Express;
  const registry = new Registry();

  beforeAll(() => {
    // Shedding off and a 2 s budget: on a busy test worker neither a 503 nor the deadline
    // guard's 504 may stand in for the answers these tests check (timing has its own tests).
    const config = loadTrackingConfig({ TRACKING_STORES_BASE_URL: 'http://127.0.0.1:1', TRACKING_SHED_LOOP_DELAY_MS: '0', TRACKING_BUDGET_MS: '2000' });
    router = createTrackingRouter({ config, registry, logger: pino({ level: 'silent' }) });
    app = express();
    app.use('/v1/tracking', router);
  });

  afterAll(() => router.close());

  it.each([
    ['ab', /must be 3 to 64 characters/],
    ['bad id!', /may contain only letters/],
    ['-leading', /must start with a letter or digit/],
    ['x'.repeat(65), /must be 3 to 64 characters/],
  ])('answers 400 for shipmentId %j with the field and reason', async (id, reason) => {
    const res = await request(app).get(`/v1/tracking/${encodeURIComponent(id)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details[0]).toEqual({ field: 'shipmentId', reason: expect.stringMatching(reason) });
  });

  it('answers 400 naming the header for a malformed or negative deadline header', async () => {
    for (const value of ['-1', '12ms']) {
      const res = await request(app).get('/v1/tracking/SHP-1').set('x-request-timeout-ms', value);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_DEADLINE_HEADER', header: 'x-request-timeout-ms' });
    }
  });

  it('answers 502 naming a store when the stores cannot be reached, well inside the budget', async () => {
    const started = performance.now();
    const res = await request(app).get('/v1/tracking/SHP-1');
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({ code: 'DEPENDENCY_FAILED', step: expect.stringMatching(/^(delivery-ops|tariff|measurement)$/) });
    expect(performance.now() - started).toBeLessThan(1000);
    const metrics = await registry.metrics();
    expect(metrics).toContain('notify_tracking_requests_total{outcome="dependency_failed",policy="weighted"} 1');
    expect(metrics).toContain('notify_tracking_requests_total{outcome="invalid",policy="weighted"} 4');
  });
});
