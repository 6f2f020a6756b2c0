import request from 'supertest';
import { waitFor } from '@notify/platform-kit';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';

/**
 * The tracking query as the platform serves it: behind tenant auth, on the real stores. That an
 * answer came by its deadline and not after a slow read is shown by the stores themselves (the
 * read was stopped at the deadline or by the api's disconnect), not by a wall-clock bound: api,
 * stores, workers and jest share one busy machine here. Latency is the tracking benchmark's.
 */
let platform: TestPlatform;
// Load shedding is off here (it has its own tests): a 503 on a busy CI loop is not what these check.
beforeAll(async () => {
  // The production warm-up (400 queries), which the first test is about.
  platform = await startTestPlatform({ env: { TRACKING_SHED_LOOP_DELAY_MS: '0', TRACKING_WARMUP_QUERIES: '400' } });
});
afterAll(async () => {
  await platform?.stop();
});

/** The tariff store's reads so far, and those it stopped short (deadline, disconnect, expired on arrival). */
async function tariffReads(): Promise<{ sent: number; stopped: number }> {
  type Counters = { requests: number; stoppedAtDeadline: number; stoppedOnDisconnect: number; expiredOnArrival: number };
  const stats = (await (await fetch(`${platform.sims.storesUrl}/control/stats`)).json()) as { stores: Record<string, Counters> };
  const t = stats.stores.tariff;
  return { sent: t?.requests ?? 0, stopped: (t?.stoppedAtDeadline ?? 0) + (t?.stoppedOnDisconnect ?? 0) + (t?.expiredOnArrival ?? 0) };
}

async function track(id: string): Promise<{ status: number; body: { shipmentId?: string; error?: { code: string; step: string } } }> {
  const res = await request(platform.api.url).get(`/v1/tracking/${id}`).set('authorization', `Bearer ${TEST_API_KEY}`);
  return { status: res.status, body: res.body };
}

it('warms the query path against the stores before it reports ready (TRACKING_WARMUP_QUERIES, default 400)', async () => {
  const stats = (await (await fetch(`${platform.sims.storesUrl}/control/stats`)).json()) as { stores: Record<string, { requests: number }> };
  // Not 400 each: on this shared, busy loop many warm-up queries spend their 200 ms before a read is sent.
  expect(stats.stores['delivery-ops']?.requests).toBeGreaterThan(0);
  expect(stats.stores.tariff?.requests).toBeGreaterThan(0);
  const ready = await request(platform.api.url).get('/readyz');
  expect([ready.status, ready.body.status]).toEqual([200, 'ready']);
  // Warm-up reads are not callers' queries: the request counter has none of them.
  const metrics = await (await fetch(platform.api.metricsUrl)).text();
  expect(metrics).not.toMatch(/^notify_tracking_requests_total\{[^}]*\} [1-9]/m);
});

it('answers a tracking query within its budget, behind the API key', async () => {
  expect((await request(platform.api.url).get('/v1/tracking/SHP-1')).status).toBe(401);
  const res = await track('SHP-1');
  // 200 with the record, or 504 naming the step whose share ran out.
  if (res.status === 200) expect(res.body).toMatchObject({ shipmentId: 'SHP-1' });
  else
    expect(res).toMatchObject({
      status: 504,
      body: { error: { code: 'DEADLINE_EXCEEDED', step: expect.stringMatching(/^(delivery-ops|tariff|measurement|tracking)$/) } },
    });
  const metrics = await (await fetch(platform.api.metricsUrl)).text();
  expect(metrics).toContain('notify_tracking_requests_total');
  const sims = await (await fetch(`${platform.sims.controlUrl}/metrics`)).text();
  expect(sims).toContain('notify_tracking_abandoned_work_seconds_total');
});

it('names the slow step in a 504 when the tariff store is in AY10, and answers by the deadline, not the slow read', async () => {
  await fetch(`${platform.sims.storesUrl}/control/tariff`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode: 'slow' }),
  });
  try {
    const before = await tariffReads();
    const res = await track('SHP-2');
    expect(res).toMatchObject({ status: 504, body: { error: { code: 'DEADLINE_EXCEEDED', step: 'tariff' } } });
    // A slow read that was sent was cut short (its deadline, or the api leaving), not waited for.
    await waitFor(
      'the tariff store to stop the slow read',
      async () => {
        const now = await tariffReads();
        return now.sent === before.sent || now.stopped > before.stopped;
      },
      10_000,
      50,
    );
  } finally {
    await fetch(`${platform.sims.storesUrl}/control/tariff`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'healthy' }),
    });
  }
});
