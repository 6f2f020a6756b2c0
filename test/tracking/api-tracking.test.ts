import request from 'supertest';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';

/** The tracking query as the platform serves it: behind tenant auth, on the real stores. */
let platform: TestPlatform;
beforeAll(async () => { platform = await startTestPlatform(); });
afterAll(async () => { await platform?.stop(); });

it('answers a tracking query within its budget, behind the API key', async () => {
  expect((await request(platform.api.url).get('/v1/tracking/SHP-1')).status).toBe(401);
  const res = await request(platform.api.url).get('/v1/tracking/SHP-1').set('authorization', `Bearer ${TEST_API_KEY}`);
  expect([200, 504]).toContain(res.status);
  if (res.status === 200) expect(res.body).toMatchObject({ shipmentId: 'SHP-1' });
  const metrics = await (await fetch(platform.api.metricsUrl)).text();
  expect(metrics).toContain('notify_tracking_requests_total');
  const sims = await (await fetch(`${platform.sims.controlUrl}/metrics`)).text();
  expect(sims).toContain('notify_tracking_abandoned_work_seconds_total');
});

it('names the slow step in a 504 when the tariff store is in AY10', async () => {
  await fetch(`${platform.sims.storesUrl}/control/tariff`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'slow' }) });
  try {
    const res = await request(platform.api.url).get('/v1/tracking/SHP-2').set('authorization', `Bearer ${TEST_API_KEY}`);
    expect(res.status).toBe(504);
    expect(res.body.error).toMatchObject({ code: 'DEADLINE_EXCEEDED', step: 'tariff' });
  } finally {
    await fetch(`${platform.sims.storesUrl}/control/tariff`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'healthy' }) });
  }
});
