import { preferredChannel, TWO_PUSH_OUTAGE, TWO_PUSH_PROVIDERS, TWO_PUSH_VIEWS } from './failover-fixture';
import { failoverFigures } from './outcomes';
import { formatReport, SEED_SAVED_PER_NOTIFICATION } from './report';
import { ledgerDuplicates, pushProvidersFile, type RunResult } from './run-push-down';
import { parseProvidersFile } from '@notify/providers';
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

it('prints a row per push provider, the share of push kept during the outage and the ledgers, with two push providers', () => {
  const two = run('on', 1_250, true);
  two.failover = {
    killed: 'push-a',
    figures: failoverFigures(TWO_PUSH_VIEWS, TWO_PUSH_PROVIDERS, preferredChannel, TWO_PUSH_OUTAGE),
    breakers: { 'push-a': { openedAfterMs: 420, closedAfterMs: 310, opens: 2 }, 'push-b': { opens: 0 } },
    ledgerDeliveredKeys: 1_199,
    ledgerDuplicateKeys: 0,
    delivered: 1_199,
  };
  const text = formatReport(options, [two], 35_000);
  expect(text).toMatch(/push-a killed \(connection refused\)/);
  expect(text).toMatch(/breaker on\s+push-a\s+3\s+1\s+2\s+2 refused\s+420\s+310\s+2/);
  expect(text).toMatch(/breaker on\s+push-b\s+2\s+2\s+2\s+2\s+-\s+-\s+0/);
  expect(text).toMatch(
    /3 push-first notifications accepted during the outage: 2 delivered on push \(66\.7 %.*1 cascaded to SMS \/ e-mail \(2 cascades avoided\)/,
  );
  expect(text).toMatch(/duplicates across both simulators' ledgers: 0 \(delivered keys 1,199 .* 0 key\(s\) in two ledgers/);
  // One push provider: none of it.
  expect(formatReport(options, [run('on', 1_296, true)], 35_000)).not.toMatch(/push-a|push providers/);
});

it('counts a key delivered in two ledgers as a duplicate', () => {
  const ledger = (deliveredKeys: number, duplicateKeys: string[] = []) => ({
    calls: {},
    outcomes: {},
    deliveredKeys,
    deliveries: deliveredKeys,
    duplicateKeys,
  });
  expect(ledgerDuplicates([ledger(500), ledger(100)], 600)).toBe(0);
  expect(ledgerDuplicates([ledger(500), ledger(101)], 600)).toBe(1);
  expect(ledgerDuplicates([ledger(500, ['k']), ledger(100)], 600)).toBe(1);
});

it('writes a PROVIDERS_FILE the apps accept: push-a then push-b, each with its control API', () => {
  const ports = (base: number) => ({ control: base, push: base + 1, sms: base + 2, email: base + 3, stores: base + 4 });
  const providers = parseProvidersFile(pushProvidersFile(ports(41_000), ports(42_000)), {});
  expect(providers).toMatchObject([
    { name: 'push-a', kind: 'simulator', channel: 'push', url: 'http://127.0.0.1:41001', controlUrl: 'http://127.0.0.1:41000' },
    { name: 'push-b', kind: 'simulator', channel: 'push', url: 'http://127.0.0.1:42001', controlUrl: 'http://127.0.0.1:42000' },
  ]);
});
