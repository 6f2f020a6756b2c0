import { Registry } from 'prom-client';
import { createPipelineMetrics } from '@notify/metrics';
import { ChannelQueues, IntakeService, IntakeSweeper, OPEN_GATE, RecipientStore, loadScripts, type StepJobData } from '@notify/pipeline';
import { createRedis, waitUntilReady } from '@notify/runtime';
import { notificationId, notificationKey, pendingIntakeKey, pendingUrgentKey, type Priority } from '@notify/core';
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
  // The urgent lane's worker took it up: it no longer counts as urgent backlog.
  expect(await redis.zscore(pendingUrgentKey(), retry.id)).toBeNull();
  const entry = (await (await fetch(`${platform.sims.controlUrl}/ledger/keys/notify-${retry.id}`)).json()) as { deliveries: unknown[] };
  expect(entry.deliveries).toHaveLength(1);
  await dying.close();
});

it('without a retry, the intake sweeper completes it: delivered exactly once', async () => {
  const dying = new QueuesThatDieOnce(redis);
  const body = notificationFor(2, 'sms', { prefix: 'crash-intake-no-retry', priority: 'reminder' });
  await expect(intakeWith(dying).accept('tenant-a', body)).rejects.toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
  await dying.close();
  // The pending set also holds the first test's notification (delivered: the next sweep drops it).
  const id = notificationId('tenant-a', body.eventId, body.recipient.id);
  expect(await redis.zscore(pendingIntakeKey(), id)).not.toBeNull();
  expect(await redis.hget(notificationKey(id), 'status')).toBe('accepted');

  const sweeper = new IntakeSweeper({ redis, queues, logger: pino({ level: 'silent' }), config: { intervalMs: 0, minAgeMs: 0, batch: 100 } });
  expect(await sweeper.sweep()).toBe(1);
  const [view] = await waitAllTerminal(platform.redis.url, [id], 20_000);
  expect(view?.status).toBe('delivered');
  // A notification stays pending until it is terminal; the next sweep finds it delivered, re-adds nothing and drops it.
  expect(await sweeper.sweep()).toBe(0);
  expect(await redis.zscore(pendingIntakeKey(), id)).toBeNull();
  const entry = (await (await fetch(`${platform.sims.controlUrl}/ledger/keys/notify-${id}`)).json()) as { deliveries: unknown[] };
  expect(entry.deliveries).toHaveLength(1);
});

it('the intake sweeper drops urgent-backlog entries a lost removal left behind, and keeps those still waiting for a lane', async () => {
  const body = notificationFor(3, 'push', { prefix: 'crash-intake-urgent', priority: 'urgent' });
  const done = await intakeWith(queues).accept('tenant-a', body);
  const [view] = await waitAllTerminal(platform.redis.url, [done.id], 20_000);
  expect(view?.status).toBe('delivered');
  // A removal lost with a failed-over master: the delivered notification is back in the urgent backlog.
  await redis.zadd(pendingUrgentKey(), Date.now() - 60_000, done.id);
  // A record still accepted at step 1 whose job waits in a lane (no worker took it up yet).
  const waiting = notificationKey('crash-intake-urgent-waiting');
  await redis.hset(waiting, 'status', 'accepted', 'step', '1');
  await redis.zadd(pendingUrgentKey(), Date.now() - 60_000, 'crash-intake-urgent-waiting');
  try {
    const sweeper = new IntakeSweeper({ redis, queues, logger: pino({ level: 'silent' }), config: { intervalMs: 0, minAgeMs: 30_000, batch: 100 } });
    await sweeper.sweep();
    expect(await redis.zscore(pendingUrgentKey(), done.id)).toBeNull();
    expect(await redis.zscore(pendingUrgentKey(), 'crash-intake-urgent-waiting')).not.toBeNull();
  } finally {
    await redis.del(waiting);
    await redis.zrem(pendingUrgentKey(), 'crash-intake-urgent-waiting');
  }
});
