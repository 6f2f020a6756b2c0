import pino from 'pino';
import { Registry } from 'prom-client';
import request from 'supertest';
import { loadTrackingStoresConfig } from './config';
import { createTrackingStoresApp, type TrackingStores } from './stores-app';

describe('tracking stores app', () => {
  let stores: TrackingStores;
  let registry: Registry;

  beforeEach(() => {
    registry = new Registry();
    stores = createTrackingStoresApp({ config: loadTrackingStoresConfig({}), registry, logger: pino({ level: 'silent' }) });
  });

  afterEach(() => stores.close());

  it('serves the three stores with the records the api expects', async () => {
    const delivery = await request(stores.app).get('/stores/delivery-ops/SHP-1');
    expect(delivery.status).toBe(200);
    expect(delivery.body).toMatchObject({ shipmentId: 'SHP-1', status: expect.any(String), updatedAt: expect.any(String) });
    const tariff = await request(stores.app).get('/stores/tariff/SHP-1');
    expect(tariff.body).toMatchObject({ currency: 'TRY', baseMinor: expect.any(Number), perKgMinor: expect.any(Number) });
    const measurement = await request(stores.app).get('/stores/measurement/SHP-1');
    expect(measurement.body).toMatchObject({ weightGrams: expect.any(Number), volumetricGrams: expect.any(Number) });
    expect(stores.control.stats().stores.tariff).toMatchObject({ requests: 1, completed: 1, abandonedWorkMs: 0 });
  });

  it.each([
    ['x-request-timeout-ms', '-20', /must not be negative/],
    ['x-request-timeout-ms', 'soon', /expected whole milliseconds/],
    ['grpc-timeout', '20', /expected 1 to 8 digits and a unit/],
  ])('answers 400 for %s: %s, naming the header', async (header, value, reason) => {
    const res = await request(stores.app).get('/stores/tariff/SHP-1').set(header, value);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_DEADLINE_HEADER', header, message: expect.stringMatching(reason) });
    expect(stores.control.stats().stores.tariff.requests).toBe(0);
  });

  it('answers 504 at once for a deadline already spent on arrival', async () => {
    const res = await request(stores.app).get('/stores/tariff/SHP-1').set('x-request-timeout-ms', '0');
    expect(res.status).toBe(504);
    expect(res.body.error).toMatchObject({ code: 'DEADLINE_EXCEEDED', store: 'tariff' });
    expect(stores.control.stats().stores.tariff.expiredOnArrival).toBe(1);
  });

  it('AY10: slow tariff stops at the propagated deadline when honouring cancellation', async () => {
    await request(stores.app).post('/control/tariff').send({ mode: 'slow' }).expect(200, { tariffMode: 'slow' });
    const res = await request(stores.app).get('/stores/tariff/SHP-1').set('x-request-timeout-ms', '31');
    expect(res.status).toBe(504);
    // Stopped, not run to the cycle's 150 ms (counted, not timed: a busy machine delays both).
    const stats = stores.control.stats();
    expect(stats.stores.tariff).toMatchObject({ stoppedAtDeadline: 1, completed: 0 });
    expect(stats.stores['delivery-ops'].requests).toBe(0);
  });

  it('without cancellation, works on past the deadline and counts it as abandoned work (stats and metric)', async () => {
    await request(stores.app).post('/control/tariff').send({ mode: 'slow' });
    await request(stores.app).post('/control/cancellation').send({ honour: false }).expect(200, { honourCancellation: false });
    const started = performance.now();
    const res = await request(stores.app).get('/stores/tariff/SHP-1').set('x-request-timeout-ms', '31');
    const elapsed = performance.now() - started;
    expect(res.status).toBe(200); // the caller would have left long ago; the store did not care
    const abandoned = stores.control.stats().stores.tariff.abandonedWorkMs;
    // 150 ms of work, 30 ms of budget: counted from the abort on, so a deadline timer that fires
    // late on a busy machine shortens it (one CI run read 95 ms); no lower bound but "counted".
    expect(abandoned).toBeGreaterThan(0);
    // Only the time past the deadline counts (a late timer adds to both sides of this).
    expect(abandoned).toBeLessThanOrEqual(elapsed - 29);
    const metric = /notify_tracking_abandoned_work_seconds_total\{store="tariff"\} ([0-9.]+)/.exec(await registry.metrics());
    expect(Number(metric?.[1])).toBeCloseTo(abandoned / 1000, 3);
  });

  it('validates control bodies and resets to the configured start', async () => {
    const bad = await request(stores.app).post('/control/tariff').send({ mode: 'broken' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/mode must be one of "healthy", "slow", "error"/);
    expect((await request(stores.app).post('/control/cancellation').send({ honour: 'yes' })).status).toBe(400);
    expect((await request(stores.app).post('/control/tariff').set('content-type', 'application/json').send('{')).status).toBe(400);
    await request(stores.app).post('/control/tariff').send({ mode: 'error' });
    expect((await request(stores.app).get('/stores/tariff/SHP-1')).status).toBe(500);
    await request(stores.app).post('/control/reset').expect(200, { tariffMode: 'healthy', honourCancellation: true });
    const stats = (await request(stores.app).get('/control/stats')).body;
    expect(stats).toMatchObject({ tariffMode: 'healthy', inFlight: 0, abandonedWorkMs: 0 });
    expect(stats.stores.tariff.requests).toBe(0);
  });
});

describe('loadTrackingStoresConfig', () => {
  it('defaults to healthy stores that honour cancellation', () => {
    expect(loadTrackingStoresConfig({})).toEqual({
      host: '127.0.0.1',
      port: 4600,
      honourCancellation: true,
      tariffMode: 'healthy',
      transitAllowanceMs: 1,
      timeScale: 1,
      maxBudgetMs: 60_000,
    });
  });

  it('fails with a clear message for an unknown mode or a bad port', () => {
    expect(() => loadTrackingStoresConfig({ TRACKING_STORES_TARIFF_MODE: 'sluggish', TRACKING_STORES_PORT: 'x' })).toThrow(
      /TRACKING_STORES_PORT: must be a port number[\s\S]*TRACKING_STORES_TARIFF_MODE: unknown tariff mode "sluggish"; expected one of healthy, slow, error/,
    );
  });
});
