import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createScheduleMetrics } from '@notify/metrics';
import { IntakeSweeper, Releaser, loadReleaseScript, type ChannelQueues } from '@notify/pipeline';
import type { RedisClient } from '@notify/runtime';
import type { WorkerConfig } from './config';

/**
 * The loops a worker runs once per partition it consumes, started: the intake sweeper (re-adds a
 * lost step job) and the releaser (moves scheduled notifications to their lanes when due).
 */
export function startPartitionLoops(deps: {
  redis: RedisClient;
  queues: ChannelQueues;
  registry: Registry;
  logger: Logger;
  config: Pick<WorkerConfig, 'workerPartitions' | 'intakeSweep' | 'release'>;
}): { stop: () => Promise<void> } {
  const { redis, queues, logger, config } = deps;
  const sweepers = config.workerPartitions.map(
    (partition) =>
      new IntakeSweeper({ redis, queues, partition, logger: logger.child({ component: 'intake-sweeper', partition }), config: config.intakeSweep }),
  );
  const releasers: Releaser[] = [];
  const metrics = createScheduleMetrics(deps.registry, async () => (await Promise.all(releasers.map((r) => r.waiting()))).reduce((a, n) => a + n, 0));
  for (const partition of config.workerPartitions) {
    const release = loadReleaseScript(redis, partition);
    const logged = logger.child({ component: 'releaser', partition });
    releasers.push(new Releaser({ redis, queues, release, partition, logger: logged, config: config.release, metrics }));
  }
  for (const sweeper of sweepers) sweeper.start();
  for (const releaser of releasers) releaser.start();
  return {
    stop: async () => {
      await Promise.all(sweepers.map((s) => s.stop()));
      await Promise.all(releasers.map((r) => r.stop()));
    },
  };
}
