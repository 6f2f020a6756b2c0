/**
 * Reference for the bench (not part of the platform): the least a full path can do per
 * notification. ROLE=api: a batch POST → SET NX per item + one BullMQ add per item. ROLE=worker:
 * takes a job, POSTs to the simulated provider of the preferred channel with the idempotency key,
 * HSETs the status, the job is removed. /metrics speaks the platform's counter names, so the bench
 * holds it with the same rate holder. Env: ROLE, REDIS_URL, PORT, CONCURRENCY, PROVIDER_*_URL.
 */
import { createHash } from 'node:crypto';
import express from 'express';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { request } from 'undici';

interface Item {
  eventId: string;
  recipient: { id: string; addresses: Record<string, string>; preferences: string[] };
  content: unknown;
}
const env = process.env;
const redis = new Redis(env.REDIS_URL as string, { maxRetriesPerRequest: null });
const counts = { accepted: 0, delivered: 0, failed: 0 };
const app = express();
app.use(express.json({ limit: '2mb' }));
let close: () => Promise<unknown> = async () => undefined;

if (env.ROLE === 'api') {
  const queue = new Queue('bare-full-path', { connection: redis, defaultJobOptions: { removeOnComplete: true, removeOnFail: true } });
  close = () => queue.close();
  app.post('/v1/notifications/batch', async (req, res) => {
    const items = (req.body as { notifications: Item[] }).notifications;
    const results = await Promise.all(
      items.map(async (item) => {
        const id = createHash('sha256').update(`${item.eventId}|${item.recipient.id}`).digest('hex').slice(0, 32);
        if ((await redis.set(`bare:n:${id}`, JSON.stringify(item), 'EX', 86_400, 'NX')) === null) return { id, httpStatus: 200 };
        const channel = item.recipient.preferences[0] as string;
        await queue.add('send', { id, channel, to: item.recipient.addresses[channel], content: item.content }, { jobId: id });
        counts.accepted += 1;
        return { id, httpStatus: 202 };
      }),
    );
    res.json({ results });
  });
} else {
  const worker = new Worker(
    'bare-full-path',
    async (job) => {
      const { id, channel, to, content } = job.data as { id: string; channel: string; to: string; content: unknown };
      const answer = await request(`${env[`PROVIDER_${channel.toUpperCase()}_URL`]}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': id },
        body: JSON.stringify({ to, message: content }),
      });
      await answer.body.dump();
      const ok = answer.statusCode < 300;
      await redis.hset(`bare:s:${id}`, 'status', ok ? 'delivered' : 'failed');
      counts[ok ? 'delivered' : 'failed'] += 1;
    },
    { connection: redis, concurrency: Number(env.CONCURRENCY ?? 100) },
  );
  close = () => worker.close();
}
app.get('/readyz', (_req, res) => {
  res.status(redis.status === 'ready' ? 200 : 503).json({ ok: redis.status === 'ready' });
});
app.get('/metrics', (_req, res) => {
  res
    .type('text/plain')
    .send(
      `notify_intake_requests_total{result="accepted"} ${counts.accepted}\n` +
        `notify_notifications_total{outcome="delivered"} ${counts.delivered}\nnotify_notifications_total{outcome="failed"} ${counts.failed}\n`,
    );
});
const server = app.listen(Number(env.PORT), '127.0.0.1');
process.once('SIGTERM', () => {
  server.close();
  void close()
    .then(() => redis.quit())
    .then(() => process.exit(0));
});
