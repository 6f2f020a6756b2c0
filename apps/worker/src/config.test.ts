import { DEFAULT_BULKHEADS } from '@notify/pipeline';
import { DEFAULT_HTTP_SERVER_LIMITS } from '@notify/runtime';
import { loadConfig } from './config';

describe('worker config', () => {
  it('sizes every lane from the defaults, and LANES sets only the lanes and fields it names', () => {
    expect(loadConfig({}).bulkheads).toEqual(DEFAULT_BULKHEADS);
    const config = loadConfig({ LANES: '{"sms":{"reminder":{"concurrency":7}},"email":{"urgent":{"ratePerSecond":250}}}' });
    expect(config.bulkheads.sms.reminder).toEqual({ concurrency: 7, ratePerSecond: DEFAULT_BULKHEADS.sms.reminder.ratePerSecond });
    expect(config.bulkheads.email.urgent).toEqual({ concurrency: DEFAULT_BULKHEADS.email.urgent.concurrency, ratePerSecond: 250 });
    expect(config.bulkheads.push).toEqual(DEFAULT_BULKHEADS.push);
  });

  it('names the bad field of LANES', () => {
    expect(() => loadConfig({ LANES: '{"push":{"urgent":{"concurrency":0}}}' })).toThrow(/LANES\.push\.urgent\.concurrency: expected a positive integer/);
    expect(() => loadConfig({ LANES: '{"push":{"urgent":{"concurrency":1.5}}}' })).toThrow(/LANES\.push\.urgent\.concurrency: expected a positive integer/);
    expect(() => loadConfig({ LANES: '{"sms":{"reminder":{"ratePerSecond":-1}}}' })).toThrow(/LANES\.sms\.reminder\.ratePerSecond: expected an integer >= 0/);
    expect(() => loadConfig({ LANES: '{"fax":{}}' })).toThrow(/LANES: Unrecognized key: "fax"/);
    expect(() => loadConfig({ LANES: '{"push":{"urgent":{"concurency":4}}}' })).toThrow(/LANES\.push\.urgent: Unrecognized key: "concurency"/);
    expect(() => loadConfig({ LANES: 'push=4' })).toThrow(/LANES: must be a JSON object/);
  });

  it('refuses a former lane variable, naming LANES, instead of ignoring it', () => {
    expect(() => loadConfig({ CONCURRENCY_SMS_REMINDER: '7', RATE_EMAIL_URGENT: '250' })).toThrow(
      /CONCURRENCY_SMS_REMINDER: no longer read: every lane is set in LANES[^\n]*\n {2}RATE_EMAIL_URGENT: no longer read: every lane is set in LANES/,
    );
  });

  it('reads a renamed variable under its old name with a warning naming the new one', () => {
    const config = loadConfig({ METRICS_PORT: '9999', STEP_BATCH_MAX: '5', SUPPRESSION_TTL_SECONDS: '60' });
    expect(config.metricsPort).toBe(9999);
    expect(config.laterStepBatch.max).toBe(5);
    expect(config.cascade.suppressionTtlSeconds).toBe(60);
    expect(config.warnings).toEqual([
      expect.stringMatching(/^STEP_BATCH_MAX is renamed CASCADE_BATCH_MAX/),
      expect.stringMatching(/^SUPPRESSION_TTL_SECONDS is renamed CASCADE_SUPPRESSION_TTL_SECONDS/),
      expect.stringMatching(/^METRICS_PORT is renamed WORKER_METRICS_PORT/),
    ]);
    expect(loadConfig({ WORKER_METRICS_PORT: '9999' }).warnings).toEqual([]);
  });

  it('serves its metrics on loopback with the shared HTTP limits by default', () => {
    const config = loadConfig({});
    expect(config.metricsHost).toBe('127.0.0.1');
    expect(config.http).toEqual(DEFAULT_HTTP_SERVER_LIMITS);
    expect(loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '2000' }).http.headersTimeoutMs).toBe(2000);
  });

  it('names every bad variable in the one config format', () => {
    expect(() => loadConfig({ LANES: '{"push":{"urgent":{"concurrency":0}}}', WORKER_METRICS_PORT: 'x', WORKER_ROLES: 'fax' })).toThrow(
      /^invalid worker configuration:\n( {2}[A-Z_.a-z]+: .+\n?){3}$/,
    );
  });
  it('takes its partitions from WORKER_PARTITIONS or its WORKER_PARTITION_INDEX share, and a cluster from REDIS_CLUSTER_NODES', () => {
    expect(loadConfig({}).workerPartitions).toEqual([0]);
    expect(loadConfig({ PARTITIONS: '16' }).workerPartitions).toHaveLength(16);
    expect(loadConfig({ PARTITIONS: '16', WORKER_PARTITIONS: '0-3,8' }).workerPartitions).toEqual([0, 1, 2, 3, 8]);
    const shares = [0, 1, 2].map((i) => loadConfig({ PARTITIONS: '16', WORKER_PARTITION_INDEX: String(i), WORKER_PARTITION_COUNT: '3' }).workerPartitions);
    expect(shares.flat()).toEqual(Array.from({ length: 16 }, (_, p) => p));
    expect(() => loadConfig({ PARTITIONS: '4', WORKER_PARTITIONS: '5' })).toThrow(/does not exist/);
    expect(() => loadConfig({ PARTITIONS: '4', WORKER_PARTITION_INDEX: '1' })).toThrow(/go together/);
    expect(() => loadConfig({ PARTITIONS: '4', WORKER_PARTITIONS: '0', WORKER_PARTITION_INDEX: '0', WORKER_PARTITION_COUNT: '2' })).toThrow(/not both/);
    expect(loadConfig({}).redis).toEqual({ url: loadConfig({}).redisUrl, startupTimeoutMs: 300_000 });
    expect(loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7001, 127.0.0.1:7002' }).redis.clusterNodes).toEqual([
      { host: '127.0.0.1', port: 7001 },
      { host: '127.0.0.1', port: 7002 },
    ]);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'nohost' })).toThrow(/REDIS_CLUSTER_NODES/);
  });
});
