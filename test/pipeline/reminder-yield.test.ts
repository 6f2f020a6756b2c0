import { Redis } from 'ioredis';
import pino from 'pino';
import { Registry } from 'prom-client';
import { createPipelineMetrics } from '@notify/metrics';
import { ChannelQueues, ChannelWorkers, DEFAULT_BULKHEADS, DEFAULT_WORKER_LOCKS, type Scripts, type StepJobData, type StepResult } from '@notify/pipeline';
import { startPrivateRedis, type PrivateRedis } from '@notify/platform-kit';

/**
 * One worker process holding a reminder backlog (a batch job of 12, 4 running, 8 waiting for a
 * reminder slot) when an urgent step arrives: the urgent step runs ahead of the 8, and from then
 * on the reminder lane gives way (the loop's delay is injected: always over the target), so its
 * next reminders run one at a time. Order and counts only, no timings.
 */
let server: PrivateRedis;
let redis: Redis;
beforeAll(async () => {
  server = await startPrivateRedis({ persistence: 'none' });
  redis = new Redis(server.url, { maxRetriesPerRequest: null });
});
afterAll(async () => {
  await redis?.quit();
  await server?.stop();
});

async function until(what: string, cond: () => boolean): Promise<void> {
  for (let i = 0; i < 3_000 && !cond(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!cond()) throw new Error(`never happened: ${what}`);
}

const step = (id: string, priority: 'urgent' | 'reminder'): StepJobData => ({ id, rh: `rh-${id}`, priority, step: 1, channel: 'push' });
const delivered: StepResult = { action: 'called', outcome: 'delivered', channel: 'push' };

it('an urgent step runs ahead of the reminders waiting in the worker, and the reminder lane then gives way', async () => {
  const started: string[] = [];
  const gates = new Map<string, () => void>();
  let remindersRunning = 0;
  let mostAfterYield = 0;
  let yielded = false;
  const queues = new ChannelQueues(redis);
  const workers = new ChannelWorkers({
    connection: redis,
    channels: ['push'],
    bulkheads: { ...DEFAULT_BULKHEADS, push: { urgent: { concurrency: 2, ratePerSecond: 0 }, reminder: { concurrency: 4, ratePerSecond: 0 } } },
    locks: DEFAULT_WORKER_LOCKS,
    processor: {
      process: async (data) => {
        started.push(data.id);
        if (data.priority === 'urgent') return delivered;
        remindersRunning += 1;
        if (yielded) mostAfterYield = Math.max(mostAfterYield, remindersRunning);
        await new Promise<void>((resolve) => gates.set(data.id, resolve));
        remindersRunning -= 1;
        return delivered;
      },
      splitBatch: () => Promise.resolve(),
      takenUp: () => undefined,
    },
    scripts: {} as Scripts,
    metrics: createPipelineMetrics(new Registry()),
    logger: pino({ level: 'silent' }),
    reminderYield: { lagTargetMs: 10, minPercent: 25, holdMs: 600_000, intervalMs: 20 },
    loopDelay: { sample: () => 100, stop: () => undefined },
  });
  const open = (id: string) => {
    gates.get(id)?.();
    gates.delete(id);
  };
  try {
    workers.start();
    await workers.waitUntilReady();
    const reminders = Array.from({ length: 12 }, (_, i) => `r${String(i).padStart(2, '0')}`);
    await queues.enqueueFirstSteps(reminders.map((id) => ({ priority: 'reminder' as const, data: step(id, 'reminder') })));
    await until('4 reminders running', () => remindersRunning === 4);
    // No urgent work yet: the reminder lane has all its slots, however late the loop.
    expect(workers.governor.share).toBe(1);

    await queues.enqueueStep('urgent', step('u1', 'urgent'));
    await until('the urgent step started', () => started.includes('u1'));
    expect(started).toEqual([...reminders.slice(0, 4), 'u1']);
    await until('the reminder lane gave way', () => workers.governor.share === 0.25);
    yielded = true;

    // The 4 running reminders end: one slot of 4 (25 %) is left, so one more starts, not four.
    for (const id of reminders.slice(0, 4)) open(id);
    await until('the fifth reminder started', () => started.length === 6);
    expect(remindersRunning).toBe(1);
    for (const id of reminders.slice(4)) {
      await until(`${id} started`, () => gates.has(id));
      open(id);
    }
    await until('every reminder ran', () => started.length === 13 && remindersRunning === 0);
    expect(started).toEqual([...reminders.slice(0, 4), 'u1', ...reminders.slice(4)]);
    expect(mostAfterYield).toBe(1);
  } finally {
    for (const id of [...gates.keys()]) open(id);
    await workers.close();
    await queues.close();
  }
});
