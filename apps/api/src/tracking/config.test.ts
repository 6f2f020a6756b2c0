import { loadTrackingConfig } from './config';

describe('loadTrackingConfig', () => {
  it('defaults to the seed scenario: 200 ms, 20 ms gateway share, weighted by medians, cancellation on', () => {
    const config = loadTrackingConfig({});
    expect(config).toMatchObject({
      budgetMs: 200,
      gatewayShareMs: 20,
      policy: 'weighted',
      transitAllowanceMs: 1,
      cancel: true,
      stopOnFailure: false,
      expectedLatenciesMs: { 'delivery-ops': 8, tariff: 6, measurement: 12 },
      tailLatenciesMs: { 'delivery-ops': 40, tariff: 80, measurement: 100 },
    });
    expect(config.storeUrls.tariff).toBe('http://127.0.0.1:4600');
  });

  it('reads every TRACKING_ variable, with per-store URL overrides', () => {
    const config = loadTrackingConfig({
      TRACKING_STORES_BASE_URL: 'http://stores:4600',
      TRACKING_TARIFF_URL: 'http://tariff:9000',
      TRACKING_BUDGET_MS: '300',
      TRACKING_GATEWAY_SHARE_MS: '30',
      TRACKING_SPLIT_POLICY: 'tail-aware',
      TRACKING_TRANSIT_ALLOWANCE_MS: '2',
      TRACKING_TAIL_LATENCIES_MS: 'delivery-ops:50, tariff:90, measurement:110',
      TRACKING_CANCEL: 'false',
      TRACKING_STOP_ON_FAILURE: 'on',
      UNRELATED: 'ignored',
    });
    expect(config).toMatchObject({
      storeUrls: { 'delivery-ops': 'http://stores:4600', tariff: 'http://tariff:9000', measurement: 'http://stores:4600' },
      budgetMs: 300,
      gatewayShareMs: 30,
      policy: 'tail-aware',
      transitAllowanceMs: 2,
      tailLatenciesMs: { 'delivery-ops': 50, tariff: 90, measurement: 110 },
      cancel: false,
      stopOnFailure: true,
    });
  });

  it('reads the answer reserve and the load-shedding thresholds, and refuses a reserve as large as the budget', () => {
    expect(loadTrackingConfig({})).toMatchObject({ answerReserveMs: 10, shedLoopDelayMs: 40, maxInFlight: 256, shedRetryAfterS: 1 });
    expect(
      loadTrackingConfig({ TRACKING_ANSWER_RESERVE_MS: '15', TRACKING_SHED_LOOP_DELAY_MS: '0', TRACKING_MAX_IN_FLIGHT: '0', TRACKING_SHED_RETRY_AFTER_S: '2' }),
    ).toMatchObject({
      answerReserveMs: 15,
      shedLoopDelayMs: 0,
      maxInFlight: 0,
      shedRetryAfterS: 2,
    });
    expect(() => loadTrackingConfig({ TRACKING_ANSWER_RESERVE_MS: '200' })).toThrow(/TRACKING_ANSWER_RESERVE_MS: must be smaller than TRACKING_BUDGET_MS/);
    expect(() => loadTrackingConfig({ TRACKING_SHED_RETRY_AFTER_S: '0' })).toThrow(/TRACKING_SHED_RETRY_AFTER_S/);
  });

  it('fails at start with a clear message for an unknown policy', () => {
    expect(() => loadTrackingConfig({ TRACKING_SPLIT_POLICY: 'fastest' })).toThrow(
      'TRACKING_SPLIT_POLICY: unknown split policy "fastest"; expected one of greedy, equal, weighted, tail-aware',
    );
  });

  it('lists every bad variable at once', () => {
    let message = '';
    try {
      loadTrackingConfig({
        TRACKING_BUDGET_MS: 'soon',
        TRACKING_CANCEL: 'maybe',
        TRACKING_EXPECTED_LATENCIES_MS: 'tariff:6',
        TRACKING_STORES_BASE_URL: 'ftp://x',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/TRACKING_BUDGET_MS: must be a number of milliseconds/);
    expect(message).toMatch(/TRACKING_CANCEL: must be true or false/);
    expect(message).toMatch(/TRACKING_EXPECTED_LATENCIES_MS: missing latency for delivery-ops, measurement/);
    expect(message).toMatch(/TRACKING_STORES_BASE_URL: must be an http\(s\) URL/);
  });

  it('rejects a gateway share that leaves nothing for the branches, and bad latency pairs', () => {
    expect(() => loadTrackingConfig({ TRACKING_BUDGET_MS: '20', TRACKING_GATEWAY_SHARE_MS: '20' })).toThrow(
      /TRACKING_GATEWAY_SHARE_MS: must be smaller than TRACKING_BUDGET_MS/,
    );
    expect(() => loadTrackingConfig({ TRACKING_TAIL_LATENCIES_MS: 'tariff:-1,measurement:1,delivery-ops:1' })).toThrow(/bad part "tariff:-1"/);
    expect(() => loadTrackingConfig({ TRACKING_TAIL_LATENCIES_MS: 'pricing:1' })).toThrow(/bad part "pricing:1"/);
  });
});
