import express, { type Express } from 'express';
import request from 'supertest';
import { Queue } from 'bullmq';
import pino from 'pino';
import { CHANNELS, PRIORITIES, QUEUE_PREFIX, channelQueueName } from '@notify/core';
import { createBullBoardRouter } from '../../apps/api/src/admin/bull-board';
import { requireAdmin } from '../../apps/api/src/auth';
import { errorMiddleware } from '../../apps/api/src/error-middleware';
import { startPrivateRedis as startTestRedis, type PrivateRedis as TestRedis } from '@notify/platform-kit';

const ADMIN_KEY = 'test-admin-key-0000000000';

let redis: TestRedis | undefined;
let queues: Queue[] = [];
let app: Express;

beforeAll(async () => {
  redis = await startTestRedis();
  const connection = { host: '127.0.0.1', port: redis.port };
  // The six real lanes, under the real prefix: what the api will hand to the board.
  queues = CHANNELS.flatMap((channel) => PRIORITIES.map((priority) => new Queue(channelQueueName(channel, priority), { connection, prefix: QUEUE_PREFIX })));
  const pushUrgent = queues.find((q) => q.name === 'push-urgent');
  await pushUrgent?.add('step', { id: 'a'.repeat(32), rh: 'b'.repeat(32), priority: 'urgent', step: 1, channel: 'push' }, { jobId: `n-${'a'.repeat(32)}-1` });
  await pushUrgent?.add('step', { id: 'c'.repeat(32), rh: 'd'.repeat(32), priority: 'urgent', step: 1, channel: 'push' }, { jobId: `n-${'c'.repeat(32)}-1`, delay: 60_000 });

  // Mounted the way the api mounts it: the admin key in front, the error middleware behind.
  app = express();
  app.set('query parser', 'simple'); // as createApp sets it; the board's sub-app inherits it
  app.use('/admin/queues', requireAdmin(ADMIN_KEY), createBullBoardRouter(queues));
  app.use(errorMiddleware(pino({ level: 'silent' })));
});

afterAll(async () => {
  await Promise.all(queues.map((q) => q.close()));
  await redis?.stop();
});

const admin = (req: request.Test) => req.set('authorization', `Bearer ${ADMIN_KEY}`);

it('refuses without the admin key, and with a wrong key', async () => {
  expect((await request(app).get('/admin/queues')).status).toBe(401);
  expect((await request(app).get('/admin/queues/api/queues').set('authorization', 'Bearer not-the-admin-key-000')).status).toBe(403);
});

it('serves the board page with its assets under the base path', async () => {
  const page = await admin(request(app).get('/admin/queues'));
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toMatch(/text\/html/);
  // Assets are relative to <base href>, which must be the mount path or the UI loads nothing.
  expect(page.text).toContain('<base href="/admin/queues/"');
  const asset = /src="(static\/js\/main\.[^"]+\.js)"/.exec(page.text)?.[1];
  expect(asset).toBeDefined();
  const script = await admin(request(app).get(`/admin/queues/${asset}`));
  expect(script.status).toBe(200);
  expect(script.headers['content-type']).toMatch(/javascript/);
});

it('lists the six lanes with their real job counts', async () => {
  const res = await admin(request(app).get('/admin/queues/api/queues?activeQueue=push-urgent&status=waiting&page=1&jobsPerPage=10'));
  expect(res.status).toBe(200);
  const lanes = (res.body as { queues: { name: string; readOnlyMode: boolean; counts: Record<string, number> }[] }).queues;
  expect(lanes.map((q) => q.name).sort()).toEqual(['email-reminder', 'email-urgent', 'push-reminder', 'push-urgent', 'sms-reminder', 'sms-urgent']);
  const pushUrgent = lanes.find((q) => q.name === 'push-urgent');
  expect(pushUrgent?.counts).toMatchObject({ waiting: 1, delayed: 1 });
  expect(lanes.every((q) => q.readOnlyMode)).toBe(true);
  // The active lane's page lists its waiting job: a pointer, no addresses.
  const jobs = (res.body as { queues: { name: string; jobs: { id: string; data: Record<string, unknown> }[] }[] }).queues.find((q) => q.name === 'push-urgent')?.jobs ?? [];
  expect(jobs.map((j) => j.id)).toEqual([`n-${'a'.repeat(32)}-1`]);
  expect(Object.keys(jobs[0]?.data ?? {}).sort()).toEqual(['channel', 'id', 'priority', 'rh', 'step']);
});

it('is read-only: emptying a lane is refused and the jobs stay', async () => {
  const res = await admin(request(app).put('/admin/queues/api/queues/push-urgent/empty'));
  expect(res.status).toBe(405);
  const pushUrgent = queues.find((q) => q.name === 'push-urgent');
  expect(await pushUrgent?.getJobCounts('waiting', 'delayed')).toEqual({ waiting: 1, delayed: 1 });
});
