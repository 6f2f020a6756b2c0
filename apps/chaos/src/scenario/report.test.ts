import { formatReport, SEED_SAVED_PER_NOTIFICATION } from './report';
import type { RunResult } from './run-push-down';
import { parseScenarioArgs, type ScenarioOptions } from './scenario-args';

const options = parseScenarioArgs(['push-down']) as ScenarioOptions;
const stats = { count: 10, meanMs: 100, p95Ms: 300 };
const phases = { before: stats, during: stats, after: stats };
const run = (mode: 'on' | 'off', calls: number, active: boolean): RunResult => ({
  mode,
  duplicates: 0,
  rejected: 0,
  unfinished: 0,
  openPeriods: mode === 'on' ? 3 : 0,
  breakerActive: active,
  downAtMs: 3_000,
  upAtMs: 9_000,
  loadMs: 12_000,
  maxLagMs: 5,
  logDir: '/tmp/x',
  ...(mode === 'on' ? { openedAfterMs: 540, closedAfterMs: 300 } : {}),
  figures: {
    notifications: 1_200,
    accepted: 1_200,
    delivered: 1_199,
    failed: 1,
    failureReasons: { 'budget-exhausted': 1 },
    deliveryRate: 1_199 / 1_200,
    externalCalls: calls,
    callsPerNotification: calls / 1_200,
    wastedCalls: mode === 'on' ? 37 : 336,
    breakerSkips: 0,
    latency: { urgent: stats, reminder: stats },
    urgentByPreferred: { push: phases, sms: phases, email: phases },
  },
});

it('prints the seed rows next to the measured ones, and the calls the breaker saved', () => {
  const text = formatReport(options, [run('on', 1_296, true), run('off', 1_596, false)], 35_000);
  expect(text).toMatch(/seed model: cascade, healthy\s+104,167\s+0\.9999\s+112,357/);
  expect(text).toMatch(/seed model: cascade, push down\s+104,167\s+0\.9991\s+166,806/);
  expect(text).toMatch(/measured: breaker on\s+1,200\s+0\.9992\s+1,296\s+1\.080\s+37\s+540\s+300\s+100 \/ 300/);
  expect(text).toMatch(/calls saved by the breaker: 300 \(18\.8 %/);
  expect(text).toContain(SEED_SAVED_PER_NOTIFICATION.toFixed(3));
  expect(text).not.toMatch(/NOT WIRED/);
  expect(text).toMatch(/note \(breaker on\): 1 failed: 1 budget-exhausted/);
});

it('says so when the apps ignored BREAKER_* (no breaker state in Redis)', () => {
  const text = formatReport(options, [run('on', 1_596, false), run('off', 1_594, false)], 35_000);
  expect(text).toMatch(/breaker on \(NOT WIRED\)/);
  expect(text).toMatch(/calls saved by the breaker: not measured/);
  expect(text).toMatch(/createBreakerGate is not wired/);
});
