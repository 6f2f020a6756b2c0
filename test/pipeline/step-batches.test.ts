import request from 'supertest';
import { addressHash, notificationId, notificationKey, queuePrefix, recipientHash } from '@notify/core';
import { ChannelQueues, loadScripts, type StepJobData } from '@notify/pipeline';
import { waitFor } from '@notify/platform-kit';
import { createRedis, waitUntilReady } from '@notify/runtime';
import type { Redis } from 'ioredis';
import { waitAllTerminal } from '../harness/notification-poll';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { notificationFor } from '../fixtures/notifications';

/**
 * First-step batch jobs (docs/benchmarks-pipeline.md, "First-step batches"): first steps of
 * one lane share one BullMQ job. Every notification is still delivered exactly once, also
 * when one item of a batch throws and BullMQ re-runs the whole job.
 */
let platform: TestPlatform;
let redis: Redis;
beforeAll(async () => {
  // Batches close on size only (a window no test waits out): five first steps per job.
  platform = await startTestPlatform({
    env: { INTAKE_BATCH_MAX: '5', CASCADE_BATCH_MAX: '5', INTAKE_BATCH_WINDOW_MS: '60000', CASCADE_BATCH_WINDOW_MS: '60000' },
    simEnv: { SIM_TRANSIENT_RATES: '0,0,0', SIM_PERMANENT_RATES: '0,0,0' },
  });
  redis = createRedis(platform.redis.url, 'producer');
  await waitUntilReady(redis);
});
afterAll(async () => {
  redis?.disconnect();
  await platform?.stop();
});

const auth = { authorization: `Bearer ${TEST_API_KEY}` };
const deliveriesOf = async (id: string) =>
  ((await (await fetch(`${platform.sims.controlUrl}/ledger/keys/notify-${id}`)).json()) as { deliveries: unknown[] }).deliveries.length;
/** The names of the jobs added to a lane since stream entry `since`, from BullMQ's events stream. */
async function jobsAdded(lane: string, since: string): Promise<string[]> {
  const entries = await redis.xrange(`${queuePrefix(0)}:${lane}:events`, `(${since}`, '+');
  return entries.flatMap(([, fields]) => {
    const event = Object.fromEntries(fields.flatMap((_, i) => (i % 2 === 0 ? [[fields[i], fields[i + 1]]] : [])));
    return event.event === 'added' ? [String(event.name)] : [];
  });
}
const lastEventId = async (lane: string) => (await redis.xrevrange(`${queuePrefix(0)}:${lane}:events`, '+', '-', 'COUNT', 1))[0]?.[0] ?? '0-0';

it('single POSTs: ten first steps of one lane go out as two batch jobs; each is delivered once', async () => {
  const lane = 'push-urgent';
  const since = await lastEventId(lane);
  const bodies = Array.from({ length: 10 }, (_, i) => notificationFor(i, 'push', { prefix: 'batch-post', priority: 'urgent' }));
  const responses = await Promise.all(bodies.map((body) => request(platform.api.url).post('/v1/notifications').set(auth).send(body)));
  expect(responses.map((r) => r.status)).toEqual(bodies.map(() => 202));
  expect(await jobsAdded(lane, since)).toEqual(['steps', 'steps']);
  const ids = responses.map((r) => (r.body as { id: string }).id);
  const views = await waitAllTerminal(platform.redis.url, ids, 30_000);
  expect(views.map((v) => [v.status, v.deliveredChannel, v.attempts.length])).toEqual(ids.map(() => ['delivered', 'push', 1]));
  expect(await Promise.all(ids.map(deliveriesOf))).toEqual(ids.map(() => 1));
});

it('later steps: ten cascades to one lane go to their next channel as two batch jobs; each is delivered once, there', async () => {
  const control = (path: string, body?: object) =>
    fetch(`${platform.sims.controlUrl}/control/channels/push${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  // Every push call fails permanently: each notification's step 2 goes to sms, after the same delay.
  await control('', { permanentRate: 1 });
  try {
    const since = await lastEventId('sms-urgent');
    const bodies = Array.from({ length: 10 }, (_, i) => notificationFor(100 + i, 'push', { prefix: 'later-batch', priority: 'urgent' }));
    const responses = await Promise.all(bodies.map((body) => request(platform.api.url).post('/v1/notifications').set(auth).send(body)));
    expect(responses.map((r) => r.status)).toEqual(bodies.map(() => 202));
    const ids = responses.map((r) => (r.body as { id: string }).id);
    const views = await waitAllTerminal(platform.redis.url, ids, 30_000);
    expect(views.map((v) => [v.status, v.deliveredChannel, v.attempts.map((a) => `${a.channel}:${a.outcome}`).join(',')])).toEqual(
      ids.map(() => ['delivered', 'sms', 'push:permanent,sms:delivered']),
    );
    // CASCADE_BATCH_MAX 5 and a window no test waits out: the ten next steps are two batch jobs.
    expect(await jobsAdded('sms-urgent', since)).toEqual(['steps', 'steps']);
    expect(await Promise.all(ids.map(deliveriesOf))).toEqual(ids.map(() => 1));
  } finally {
    await control('/restore');
  }
});

/** Writes a notification's record as intake does (for SMS only) and returns its first step. */
async function accepted(eventId: string): Promise<StepJobData> {
  const recipientId = `r-${eventId}`;
  const id = notificationId('tenant-a', eventId, recipientId);
  const rh = recipientHash('tenant-a', recipientId);
  const addresses = { sms: '+905551110000' };
  const reply = await loadScripts(redis).intake({
    id,
    fingerprint: `fp-${eventId}`,
    tenant: 'tenant-a',
    eventId,
    recipientId,
    rh,
    priority: 'urgent',
    plan: ['sms'],
    firstChannel: 'sms',
    content: { title: 'T', body: `B ${eventId}` },
    addresses,
    addressHashes: { sms: addressHash('sms', addresses.sms) },
    now: Date.now(),
    recordTtlSeconds: 3_600,
    skips: [],
  });
  expect(reply).toMatchObject({ code: 'created', status: 'accepted', skipped: [] });
  return { id, rh, priority: 'urgent', step: 1, channel: 'sms' };
}

it('one item of a batch throws: the job is retried, the others are not sent again, the thrower is delivered on the re-run', async () => {
  const queues = new ChannelQueues(redis);
  try {
    const steps = await Promise.all(['batch-throw-1', 'batch-throw-2', 'batch-throw-3'].map(accepted));
    const [, , thrower] = steps as [StepJobData, StepJobData, StepJobData];
    // A record begin-attempt cannot read (its call count is no number): the item's step throws before any call.
    await redis.hset(notificationKey(thrower.id), 'calls', 'not-a-number');
    await queues.enqueueFirstSteps(steps.map((data) => ({ priority: 'urgent', data })));

    const others = steps.filter((s) => s !== thrower).map((s) => s.id);
    await waitAllTerminal(platform.redis.url, others, 30_000);
    // The batch job failed once (and waits for its retry): the thrower was not called.
    const lane = queues.get('sms', 'urgent');
    await waitFor(
      'the batch job failed once',
      async () => ((await lane.getJobs(['delayed', 'wait', 'active'])).some((j) => j.attemptsMade >= 1) ? true : undefined),
      30_000,
      50,
    );
    expect(await deliveriesOf(thrower.id)).toBe(0);

    await redis.hset(notificationKey(thrower.id), 'calls', '0');
    const views = await waitAllTerminal(
      platform.redis.url,
      steps.map((s) => s.id),
      30_000,
    );
    expect(views.map((v) => [v.status, v.attempts.length])).toEqual(steps.map(() => ['delivered', 1]));
    expect(await Promise.all(steps.map((s) => deliveriesOf(s.id)))).toEqual([1, 1, 1]);
  } finally {
    await queues.close();
  }
});
