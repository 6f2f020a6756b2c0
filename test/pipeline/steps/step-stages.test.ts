import pino from 'pino';
import { Writable } from 'node:stream';
import { createPipelineMetrics, createRegistry } from '@notify/metrics';
import { ChannelQueues, createStepProcessor, DEFAULT_CASCADE_CONFIG, OPEN_GATE, STEP_STAGES, type StepStage, type NotificationEnded } from '@notify/pipeline';
import { notificationKey } from '@notify/core';
import { intakeArgs, useScriptRedis } from '../scripts/script-redis';

/**
 * The step processor on one private Redis, its scripts and queues real: a late job of an
 * archived notification, a truly missing record, and the stage contract's `defer` and `end`.
 */
const { redis, scripts, archiving } = useScriptRedis();
let queues: ChannelQueues;
let lines: string[] = [];
beforeEach(() => {
  lines = [];
  queues = new ChannelQueues(redis());
});
afterEach(async () => {
  await queues.close();
});

function processor(stages?: readonly StepStage[]) {
  const logger = pino({ level: 'warn' }, new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) }));
  const ended: NotificationEnded[] = [];
  const p = createStepProcessor({
    redis: redis(),
    scripts: scripts(),
    queues,
    providers: {
      get: () => {
        throw new Error('no provider in this test');
      },
    },
    gate: OPEN_GATE,
    metrics: createPipelineMetrics(createRegistry('test')),
    logger,
    config: DEFAULT_CASCADE_CONFIG,
    ...(stages ? { stages } : {}),
  });
  p.events.ended.subscribe((e) => void ended.push(e));
  return { p, ended };
}

const job = (id: string) => ({ id, rh: intakeArgs().rh, priority: 'urgent' as const, step: 1, channel: 'push' as const });

it('a late step job of a notification archived and compacted is ignored as terminal, with no missing-record warning', async () => {
  const id = 'ab'.repeat(16);
  await scripts().intake(intakeArgs({ id }));
  await archiving().finishNotification({ id, fromStep: 1, status: 'failed', reason: 'budget-exhausted', now: Date.now() });
  await scripts().compactArchived({ ids: [id], idempotencyWindowSeconds: 86_400 });
  expect(await redis().exists(notificationKey(id))).toBe(0);

  await expect(processor().p.process(job(id))).resolves.toEqual({ action: 'ignored', reason: 'terminal' });
  expect(lines.filter((l) => l.includes('missing record'))).toEqual([]);
});

it('a step job for a record that never existed still warns', async () => {
  await expect(processor().p.process(job('cd'.repeat(16)))).resolves.toEqual({ action: 'ignored', reason: 'missing' });
  expect(lines.filter((l) => l.includes('step job for a missing record'))).toHaveLength(1);
});

it('a stage before begin-attempt can end the notification: the terminal hook hears it once', async () => {
  const { id } = intakeArgs();
  await scripts().intake(intakeArgs());
  const optedOut: StepStage = { name: 'opted-out', run: async () => ({ kind: 'end', status: 'failed', reason: 'opted out' }) };
  const { p, ended } = processor([optedOut, ...STEP_STAGES]);
  await expect(p.process(job(id))).resolves.toEqual({ action: 'ended', status: 'failed', reason: 'opted out' });
  expect(await redis().hmget(notificationKey(id), 'status', 'reason', 'calls')).toEqual(['failed', 'opted out', '0']);
  expect(ended).toEqual([expect.objectContaining({ notificationId: id, status: 'failed', calls: 0, replay: false })]);
});

it('a stage before begin-attempt can defer the step: the record moves to a fresh step on the same channel, nothing is called', async () => {
  const { id } = intakeArgs();
  await scripts().intake(intakeArgs());
  const until = Date.now() + 60_000;
  const quiet: StepStage = { name: 'quiet', run: async () => ({ kind: 'defer', untilMs: until, reason: 'quiet hours' }) };
  await expect(processor([quiet, ...STEP_STAGES]).p.process(job(id))).resolves.toEqual({ action: 'deferred', untilMs: until, reason: 'quiet hours' });
  expect(await redis().hmget(notificationKey(id), 'step', 'chan', 'status', 'calls')).toEqual(['2', 'push', 'retry-scheduled', '0']);
});
