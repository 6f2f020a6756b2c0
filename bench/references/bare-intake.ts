/**
 * Reference for the bench (not part of the platform): the least an intake can do per POST.
 * Express, JSON body, SET NX on the idempotency key, one BullMQ add, 202. The bench offers it
 * the same single-POST open loop as the platform's api and prints the ratio.
 * Env: REDIS_URL, PORT (127.0.0.1 only).
 */
import { createHash } from 'node:crypto';
import express from 'express';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';

const redis = new Redis(process.env.REDIS_URL as string, { maxRetriesPerRequest: null });
const queue = new Queue('bare-intake', { connection: redis, defaultJobOptions: { removeOnComplete: true } });
const app = express();
app.use(express.json({ limit: '64kb' }));

app.post('/v1/notifications', async (req, res) => {
  const body = req.body as { eventId?: string; recipient?: { id?: string }; priority?: string };
  if (!body.eventId || !body.recipient?.id) {
    res.status(400).json({ error: 'eventId and recipient.id are required' });
    return;
  }
  const id = createHash('sha256').update(`${body.eventId}|${body.recipient.id}`).digest('hex').slice(0, 32);
  const fresh = await redis.set(`bare:n:${id}`, JSON.stringify(body), 'EX', 86_400, 'NX');
  if (fresh === null) {
    res.status(200).json({ id, duplicate: true });
    return;
  }
  await queue.add('step', { id, priority: body.priority }, { jobId: `n-${id}` });
  res.status(202).json({ id, status: 'accepted' });
});
app.get('/readyz', (_req, res) => {
  res.json({ ok: redis.status === 'ready' });
});
app.get('/metrics', (_req, res) => {
  res.type('text/plain').send('');
});

const server = app.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => {
  server.close();
  void queue
    .close()
    .then(() => redis.quit())
    .then(() => process.exit(0));
});
