import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { ParkedStore } from '@notify/history';
import { createScheduleMetrics } from '@notify/metrics';
import { IntakeSweeper, Parker, Releaser, loadParkScripts, loadReleaseScript, type ChannelQueues } from '@notify/pipeline';
import type { RedisClient } from '@notify/runtime';
import type { WorkerConfig } from './config';

/**
 * The loops a worker runs once per partition it consumes, started: the intake sweeper (re-adds a
 * lost step job), the releaser (moves scheduled notifications to their lanes when due) and, with
 * the history's `parked` store, the parker (far-future schedules wait in PostgreSQL).
 */
export function startPartitionLoops(deps: {
  redis: RedisClient;
  queues: ChannelQueues;
  registry: Registry;
  logger: Logger;
  config: Pick<WorkerConfig, 'workerPartitions' | 'intakeSweep' | 'release' | 'park'>;
  parked?: ParkedStore;
}): { stop: () => Promise<void> } {
  const { redis, queues, logger, config, parked } = deps;
  const sweepers = config.workerPartitions.map(
    (partition) =>
      new IntakeSweeper({ redis, queues, partition, logger: logger.child({ component: 'intake-sweeper', partition }), config: config.intakeSweep }),
  );
  const releasers: Releaser[] = [];
  const parkers: Parker[] = [];
  const metrics = createScheduleMetrics(
    deps.registry,
    async () => (await Promise.all(releasers.map((r) => r.waiting()))).reduce((a, n) => a + n, 0),
    async () => (parked ? parked.count(config.workerPartitions) : 0),
  );
  for (const partition of config.workerPartitions) {
    const release = loadReleaseScript(redis, partition);
    const logged = logger.child({ component: 'releaser', partition });
    releasers.push(new Releaser({ redis, queues, release, partition, logger: logged, config: config.release, metrics }));
    if (parked) {
      const scripts = loadParkScripts(redis, partition);
      parkers.push(
        new Parker({ redis, store: parked, scripts, partition, logger: logger.child({ component: 'parker', partition }), config: config.park, metrics }),
      );
    }
  }
  const loops = [...sweepers, ...releasers, ...parkers];
  for (const loop of loops) loop.start();
  return {
    stop: async () => {
      await Promise.all(loops.map((l) => l.stop()));
    },
  };
}
