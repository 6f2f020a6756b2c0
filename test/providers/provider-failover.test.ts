import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import request from 'supertest';
import type { NotificationView } from '@notify/core';
import { readBreakerSnapshots } from '@notify/pipeline';
import { createRedis } from '@notify/runtime';
import type { Redis } from 'ioredis';
import { createControlClient, type ControlClient } from '../../apps/chaos/src/control-client';
import { runChaos } from '../../apps/chaos/src/run-chaos';
import { loadConfig as loadSimConfig } from '../../apps/simulators/src/config';
import { startSimulators, type RunningSimulators } from '../../apps/simulators/src/simulators';
import { simulatorPortsEnv, waitFor } from '@notify/platform-kit';
import { waitAllTerminal } from '../harness/notification-poll';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';

/**
 * Failover between two providers of one channel: SMS provider A is killed, SMS
 * continues on provider B, and the calls wasted on A are the few the breaker needs to open.
 * Two extra simulators processes play the two SMS providers; the apps build their own breaker
 * gates from env, per provider, with PROVIDERS_FILE naming sms-a then sms-b.
 */
const MIN_CALLS = 5;
const PER_BATCH = 10;
const ROUTES = { push: ['push'], sms: ['sms-a', 'sms-b'], email: ['email'] };

let smsA: RunningSimulators;
let smsB: RunningSimulators;
let controlA: ControlClient;
let platform: TestPlatform;
let redis: Redis;

const startSmsProvider = () =>
  startSimulators(
    loadSimConfig({
      // Every port 0: the kernel picks, nothing can take it first.
      ...simulatorPortsEnv({ control: 0, push: 0, sms: 0, email: 0, stores: 0 }),
      SIM_LATENCY_MS: '5',
      // No random errors: the test counts what the kill costs, nothing else.
      SIM_TRANSIENT_RATES: '0,0,0',
      SIM_PERMANENT_RATES: '0,0,0',
      LOG_LEVEL: 'silent',
    }),
    pino({ level: 'silent' }),
  );

beforeAll(async () => {
  smsA = await startSmsProvider();
  smsB = await startSmsProvider();
  controlA = createControlClient(smsA.controlUrl, 5_000);
  const dir = mkdtempSync(join(tmpdir(), 'provider-failover-'));
  const file = join(dir, 'providers.yaml');
  writeFileSync(
    file,
    [
      'providers:',
      '  - { name: sms-a, kind: simulator, channel: sms, url: "${SMS_A_URL}", controlUrl: "${SMS_A_CONTROL}" }',
      '  - { name: sms-b, kind: simulator, channel: sms, url: "${SMS_B_URL}" }',
      '',
    ].join('\n'),
  );
  platform = await startTestPlatform({
    workerCount: 1,
    env: {
      PROVIDERS_FILE: file,
      SMS_A_URL: smsA.providerUrls.sms,
      SMS_A_CONTROL: smsA.controlUrl,
      SMS_B_URL: smsB.providerUrls.sms,
      BREAKER_WINDOW_MS: '2000',
      BREAKER_MIN_CALLS: String(MIN_CALLS),
      BREAKER_FAILURE_RATIO: '0.5',
      // Open for the rest of the test: the phase after the kill measures failover, not recovery.
      BREAKER_OPEN_MS: '120000',
      BREAKER_CACHE_MS: '50',
    },
  });
  redis = createRedis(platform.redis.url, 'producer');
});
afterAll(async () => {
  redis?.disconnect();
  await platform?.stop();
  await smsA?.close();
  await smsB?.close();
});

/** SMS-only notifications: the plan is [sms], so only the channel's providers can deliver them. */
function smsOnly(prefix: string, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    eventId: `${prefix}-${i}`,
    priority: i % 2 === 0 ? 'urgent' : 'reminder',
    recipient: { id: `${prefix}-user-${i}`, addresses: { sms: `+90555${String(2_000_000 + i).slice(-7)}` }, preferences: ['sms'] },
    content: { title: 'Kargo', body: `Sipariş ${i} yolda.` },
  }));
}

async function post(bodies: readonly unknown[], perBatch: number, pauseMs: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < bodies.length; i += perBatch) {
    const res = await request(platform.api.url)
      .post('/v1/notifications/batch')
      .set('authorization', `Bearer ${TEST_API_KEY}`)
      .send({ notifications: bodies.slice(i, i + perBatch) });
    expect(res.status).toBe(200);
    for (const item of res.body.results as { httpStatus: number; id: string }[]) {
      expect(item.httpStatus).toBe(202);
      ids.push(item.id);
    }
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return ids;
}

const attemptsOn = (views: readonly NotificationView[], provider: string) => views.flatMap((v) => v.attempts.filter((a) => a.provider === provider));

it('SMS provider A killed: SMS continues on provider B, wasting only what the breaker needs to open', async () => {
  const before = await waitAllTerminal(platform.redis.url, await post(smsOnly('failover-before', 30), 10, 0));
  expect(before.filter((v) => v.status !== 'delivered').map((v) => `${v.id}:${v.status}`)).toEqual([]);
  // The first healthy provider in file order makes every call.
  expect(attemptsOn(before, 'sms-a').filter((a) => a.outcome === 'delivered')).toHaveLength(30);
  expect(attemptsOn(before, 'sms-b')).toHaveLength(0);

  // Let phase 1's successes leave sms-a's window: the breaker then needs only its minimum volume.
  await waitFor(
    'sms-a window empty',
    async () => ((await readBreakerSnapshots(redis, ROUTES)).find((b) => b.provider === 'sms-a')?.windowCalls === 0 ? true : undefined),
    10_000,
    100,
  );
  // The chaos CLI kills one provider of the channel, found by its name in PROVIDERS_FILE.
  const io = { out: () => undefined, err: (text: string) => errors.push(text), env: { ...platform.env } };
  const errors: string[] = [];
  expect(await runChaos(['kill-provider', 'sms-a'], io)).toBe(0);
  expect(errors).toEqual([]);
  expect((await controlA.channels()).sms.mode).toBe('down');
  const after = await waitAllTerminal(platform.redis.url, await post(smsOnly('failover-after', 120), PER_BATCH, 100), 90_000);
  const wasted = attemptsOn(after, 'sms-a');
  const onB = attemptsOn(after, 'sms-b');
  const delivered = after.filter((v) => v.status === 'delivered').length;
  process.stdout.write(`provider failover: ${delivered}/120 delivered, ${onB.length} calls on sms-b, ${wasted.length} refused calls on sms-a\n`);

  expect(after.filter((v) => v.status !== 'delivered').map((v) => `${v.id}:${v.status}`)).toEqual([]);
  expect(wasted.every((a) => a.outcome !== 'delivered')).toBe(true);
  // What the breaker needs: the minimum volume, plus the calls already admitted when it opened. How
  // many those are depends on how busy the machine is; that none started once it had opened does not
  // (a worker may act on its cached state for BREAKER_CACHE_MS; a second allows for a busy loop).
  expect(wasted.length).toBeGreaterThanOrEqual(MIN_CALLS);
  const breaker = (await readBreakerSnapshots(redis, ROUTES)).find((b) => b.provider === 'sms-a');
  expect(breaker?.state).toBe('open');
  const openedAt = breaker?.since ?? 0;
  expect(wasted.filter((a) => a.startedAt > openedAt + 1_000)).toEqual([]);
  expect(onB.filter((a) => a.outcome === 'delivered')).toHaveLength(120);
  // Refused connections spend nothing: no notification used more than the budget.
  for (const v of after) expect(v.attempts.filter((a) => a.spent !== false).length).toBeLessThanOrEqual(3);

  const breakers = await readBreakerSnapshots(redis, ROUTES);
  expect(breakers.find((b) => b.provider === 'sms-a')?.state).toBe('open');
  expect(breakers.find((b) => b.provider === 'sms-b')?.state).toBe('closed');
  // Provider B delivered each key once.
  const ledgerB = await createControlClient(smsB.controlUrl, 5_000).ledger();
  expect(ledgerB.duplicateKeys).toEqual([]);
  expect(ledgerB.deliveredKeys).toBe(120);
});
