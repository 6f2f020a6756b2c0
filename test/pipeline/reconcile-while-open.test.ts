import pino from 'pino';
import request from 'supertest';
import type { Channel } from '@notify/core';
import { OPEN_GATE, type ChannelGate, type GateTicket } from '@notify/pipeline';
import { startApi, type RunningApi } from '../../apps/api/src/api-runtime';
import { loadConfig as loadApiConfig } from '../../apps/api/src/config';
import { loadConfig as loadSimConfig } from '../../apps/simulators/src/config';
import { startSimulators, type RunningSimulators } from '../../apps/simulators/src/simulators';
import { loadConfig as loadWorkerConfig } from '../../apps/worker/src/config';
import { startWorker, type RunningWorker } from '../../apps/worker/src/worker-runtime';
import { readViews, waitAllTerminal } from '../harness/notification-poll';
import { TEST_API_KEY } from '../harness/platform';
import { startTestRedis, type TestRedis } from '../harness/redis-server';
import { waitFor } from '../harness/wait-for';

/**
 * An unknown outcome must be reconciled on its own channel, even while that channel's breaker
 * is open: the notification waits (re-checking at CASCADE_UNAVAILABLE_RETRY_MS), neither
 * cascading elsewhere (a possible second delivery) nor spinning through steps.
 */
class SwitchableGate implements ChannelGate {
  readonly open = new Set<Channel>();
  private readonly free: GateTicket = { release: async () => undefined };
  async openChannels(): Promise<ReadonlySet<Channel>> { return new Set(this.open); }
  async acquire(channel: Channel): Promise<GateTicket | undefined> { return this.open.has(channel) ? undefined : this.free; }
  async close(): Promise<void> {}
}

const logger = pino({ level: 'silent' });
let redis: TestRedis;
let sims: RunningSimulators;
let api: RunningApi;
let worker: RunningWorker;
const gate = new SwitchableGate();

beforeAll(async () => {
  redis = await startTestRedis();
  sims = await startSimulators(loadSimConfig({
    SIM_CONTROL_PORT: '0', SIM_PUSH_PORT: '0', SIM_SMS_PORT: '0', SIM_EMAIL_PORT: '0', TRACKING_STORES_PORT: '0',
    SIM_LATENCY_MS: '5', SIM_TRANSIENT_RATES: '0,0,0', SIM_PERMANENT_RATES: '0,0,0',
  }));
  const env = {
    REDIS_URL: redis.url, API_PORT: '0', METRICS_PORT: '0', API_KEYS: `${TEST_API_KEY}:tenant-a`,
    PROVIDER_PUSH_URL: sims.providerUrls.push, PROVIDER_SMS_URL: sims.providerUrls.sms, PROVIDER_EMAIL_URL: sims.providerUrls.email,
    PROVIDER_TIMEOUT_MS: '300', CASCADE_RECONCILE_DELAY_MS: '100', CASCADE_UNAVAILABLE_RETRY_MS: '400', CASCADE_TRANSIENT_DELAY_MS: '100',
  };
  api = await startApi(loadApiConfig(env), logger, { gate: OPEN_GATE });
  worker = await startWorker(loadWorkerConfig(env), logger, { gate });
});
afterAll(async () => {
  await worker?.close();
  await api?.close();
  await sims?.close();
  await redis?.stop();
});

it('waits on the open channel at an interval, then reconciles there: one delivery, no cascade', async () => {
  // Push answers after 1.5 s: the first call times out (300 ms) and is unknown, but delivers.
  await fetch(`${sims.controlUrl}/control/channels/push`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'slow', slowMs: 1_500 }),
  });
  const res = await request(api.url).post('/v1/notifications').set('authorization', `Bearer ${TEST_API_KEY}`).send({
    eventId: 'reconcile-open', priority: 'urgent',
    recipient: { id: 'r-1', addresses: { push: 'tok', sms: '+905551112233', email: 'r1@example.com' } },
    content: { title: 't', body: 'b' },
  });
  expect(res.status).toBe(202);
  const id = res.body.id as string;
  await waitFor('the first push call to end unknown', async () => {
    const [view] = await readViews(redis.url, [id]);
    return view?.attempts[0]?.outcome === 'unknown';
  }, 10_000);
  gate.open.add('push');

  // Two seconds with push open: a step every 400 ms at most, never a call elsewhere.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const [waiting] = await readViews(redis.url, [id]);
  expect(waiting?.status).not.toBe('delivered');
  expect(waiting?.attempts).toHaveLength(1);
  expect(waiting?.skips.length).toBeGreaterThan(0);
  expect(waiting?.skips.length).toBeLessThanOrEqual(8);

  await fetch(`${sims.controlUrl}/control/channels/push/restore`, { method: 'POST' });
  gate.open.delete('push');
  const [done] = await waitAllTerminal(redis.url, [id], 10_000);
  expect(done).toMatchObject({ status: 'delivered', deliveredChannel: 'push' });
  expect(done?.attempts.map((a) => [a.channel, a.kind, a.outcome])).toEqual([['push', 'send', 'unknown'], ['push', 'reconcile', 'delivered']]);
  const ledger = (await (await fetch(`${sims.controlUrl}/ledger`)).json()) as { deliveries: number; calls: Record<string, number> };
  expect(ledger.deliveries).toBe(1);
  expect(ledger.calls.sms ?? 0).toBe(0);
  expect(ledger.calls.email ?? 0).toBe(0);
});
