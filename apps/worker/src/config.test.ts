import { DEFAULT_BULKHEADS } from '@notify/pipeline';
import { DEFAULT_HTTP_SERVER_LIMITS } from '@notify/runtime';
import { loadConfig } from './config';

describe('worker config', () => {
  it('sizes every lane from the defaults, and each lane variable sets its own lane only', () => {
    expect(loadConfig({}).bulkheads).toEqual(DEFAULT_BULKHEADS);
    const config = loadConfig({ CONCURRENCY_SMS_REMINDER: '7', RATE_EMAIL_URGENT: '250' });
    expect(config.bulkheads.sms.reminder).toEqual({ concurrency: 7, ratePerSecond: DEFAULT_BULKHEADS.sms.reminder.ratePerSecond });
    expect(config.bulkheads.email.urgent).toEqual({ concurrency: DEFAULT_BULKHEADS.email.urgent.concurrency, ratePerSecond: 250 });
    expect(config.bulkheads.push).toEqual(DEFAULT_BULKHEADS.push);
  });

  it('serves its metrics on loopback with the shared HTTP limits by default', () => {
    const config = loadConfig({});
    expect(config.metricsHost).toBe('127.0.0.1');
    expect(config.http).toEqual(DEFAULT_HTTP_SERVER_LIMITS);
    expect(loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '2000' }).http.headersTimeoutMs).toBe(2000);
  });

  it('names every bad variable in the one config format', () => {
    expect(() => loadConfig({ CONCURRENCY_PUSH_URGENT: '0', METRICS_PORT: 'x', WORKER_ROLES: 'fax' })).toThrow(
      /^invalid worker configuration:\n( {2}[A-Z_]+: .+\n?){3}$/,
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
    expect(loadConfig({}).redis).toEqual({ url: loadConfig({}).redisUrl });
    expect(loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7001, 127.0.0.1:7002' }).redis.clusterNodes).toEqual([
      { host: '127.0.0.1', port: 7001 },
      { host: '127.0.0.1', port: 7002 },
    ]);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'nohost' })).toThrow(/REDIS_CLUSTER_NODES/);
  });
});
