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

  it('fails at start with a clear message for an unknown policy', () => {
    expect(() => loadTrackingConfig({ TRACKING_SPLIT_POLICY: 'fastest' })).toThrow(
      'TRACKING_SPLIT_POLICY: unknown split policy "fastest"; expected one of greedy, equal, weighted, tail-aware',
    );
  });

  it('lists every bad variable at once', () => {
    let message = '';
    try {
      loadTrackingConfig({ TRACKING_BUDGET_MS: 'soon', TRACKING_CANCEL: 'maybe', TRACKING_EXPECTED_LATENCIES_MS: 'tariff:6', TRACKING_STORES_BASE_URL: 'ftp://x' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/TRACKING_BUDGET_MS: must be a number of milliseconds/);
    expect(message).toMatch(/TRACKING_CANCEL: must be true or false/);
    expect(message).toMatch(/TRACKING_EXPECTED_LATENCIES_MS: missing latency for delivery-ops, measurement/);
    expect(message).toMatch(/TRACKING_STORES_BASE_URL: must be an http\(s\) URL/);
  });

  it('rejects a gateway share that leaves nothing for the branches, and bad latency pairs', () => {
    expect(() => loadTrackingConfig({ TRACKING_BUDGET_MS: '20', TRACKING_GATEWAY_SHARE_MS: '20' })).toThrow(/TRACKING_GATEWAY_SHARE_MS: must be smaller than TRACKING_BUDGET_MS/);
    expect(() => loadTrackingConfig({ TRACKING_TAIL_LATENCIES_MS: 'tariff:-1,measurement:1,delivery-ops:1' })).toThrow(/bad part "tariff:-1"/);
    expect(() => loadTrackingConfig({ TRACKING_TAIL_LATENCIES_MS: 'pricing:1' })).toThrow(/bad part "pricing:1"/);
  });
});
