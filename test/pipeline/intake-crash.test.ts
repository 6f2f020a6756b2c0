import { Registry } from 'prom-client';
import { createPipelineMetrics } from '@notify/metrics';
import { ChannelQueues, IntakeService, IntakeSweeper, OPEN_GATE, RecipientStore, loadScripts, type StepJobData } from '@notify/pipeline';
import { createRedis, waitUntilReady } from '@notify/runtime';
import { notificationKey, pendingIntakeKey, type Priority } from '@notify/core';
import pino from 'pino';
import type { Redis } from 'ioredis';
import { startTestPlatform, type TestPlatform } from '../harness/platform';
import { waitAllTerminal } from '../harness/notification-poll';
import { notificationFor } from '../fixtures/notifications';

/**
 * Invariant 1: intake writes the record (idempotency key) first and the job second. If the
 * process dies in between, the client got no 202 and retries: the retry must find the record,
 * re-add the same job, and the notification must then be delivered exactly once.
 */
let platform: TestPlatform;
let redis: Redis;
let queues: ChannelQueues;
beforeAll(async () => {
  platform = await startTestPlatform();
  redis = createRedis(platform.redis.url, 'producer');
  await waitUntilReady(redis);
  queues = new ChannelQueues(redis);
});
afterAll(async () => {
  await queues?.close();
  redis?.disconnect();
  await platform?.stop();
});

/** Real queues whose first enqueue fails the way a dying connection does. */
class QueuesThatDieOnce extends ChannelQueues {
  private died = false;
  override async enqueueStep(priority: Priority, data: StepJobData, delayMs = 0): Promise<void> {
    if (!this.died) {
      this.died = true;
      throw new Error('Connection is closed.');
    }
    return super.enqueueStep(priority, data, delayMs);
  }
}

function intakeWith(q: ChannelQueues): IntakeService {
  return new IntakeService({
    scripts: loadScripts(redis),
    queues: q,
    recipients: new RecipientStore(redis),
    gate: OPEN_GATE,
    metrics: createPipelineMetrics(new Registry()),
    config: { recordTtlSeconds: 86_400, budget: 3 },
  });
}

it('a retry after a crash between the record and the job delivers exactly once', async () => {
  const dying = new QueuesThatDieOnce(redis);
  const body = notificationFor(1, 'push', { prefix: 'crash-intake', priority: 'urgent' });
  await expect(intakeWith(dying).accept('tenant-a', body)).rejects.toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE', httpStatus: 503 });

  // The client retries (here: through a healthy api instance's intake).
  const retry = await intakeWith(queues).accept('tenant-a', body);
  expect(retry).toMatchObject({ kind: 'duplicate', status: 'accepted' });
  const [view] = await waitAllTerminal(platform.redis.url, [retry.id], 20_000);
  expect(view?.status).toBe('delivered');
  const entry = (await (await fetch(`${platform.sims.controlUrl}/ledger/keys/notify-${retry.id}`)).json()) as { deliveries: unknown[] };
  expect(entry.deliveries).toHaveLength(1);
  await dying.close();
});

it('without a retry, the intake sweeper completes it: delivered exactly once', async () => {
  const dying = new QueuesThatDieOnce(redis);
  const body = notificationFor(2, 'sms', { prefix: 'crash-intake-no-retry', priority: 'reminder' });
  await expect(intakeWith(dying).accept('tenant-a', body)).rejects.toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
  await dying.close();
  const [id] = await redis.zrange(pendingIntakeKey(), '0', '-1');
  expect(id).toBeDefined();
  expect(await redis.hget(notificationKey(id as string), 'status')).toBe('accepted');

  const sweeper = new IntakeSweeper({ redis, queues, logger: pino({ level: 'silent' }), config: { intervalMs: 0, minAgeMs: 0, batch: 100 } });
  expect(await sweeper.sweep()).toBe(1);
  const [view] = await waitAllTerminal(platform.redis.url, [id as string], 20_000);
  expect(view?.status).toBe('delivered');
  // Started notifications leave the pending set; a later sweep has nothing to do.
  expect(await redis.zscore(pendingIntakeKey(), id as string)).toBeNull();
  expect(await sweeper.sweep()).toBe(0);
  const entry = (await (await fetch(`${platform.sims.controlUrl}/ledger/keys/notify-${id}`)).json()) as { deliveries: unknown[] };
  expect(entry.deliveries).toHaveLength(1);
});
