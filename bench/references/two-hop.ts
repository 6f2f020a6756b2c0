/**
 * Reference for the bench (not part of the platform): a bare two-hop BullMQ pipeline, the
 * ceiling the platform's two Redis round trips per notification are compared with. Hop 1 takes
 * a job and adds one to hop 2; hop 2 waits the simulated provider latency and completes.
 * Completed jobs are removed (the least BullMQ can do). GET /count answers hop-2 completions.
 * Env: REDIS_URL, PORT, CONCURRENCY, LATENCY_MS.
 */
import { createServer } from 'node:http';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';

const connection = new Redis(process.env.REDIS_URL as string, { maxRetriesPerRequest: null });
const concurrency = Number(process.env.CONCURRENCY ?? 50);
const latencyMs = Number(process.env.LATENCY_MS ?? 0);
const opts = { removeOnComplete: true };
const second = new Queue('hop-2', { connection, defaultJobOptions: opts });
let completed = 0;
const hop1 = new Worker(
  'hop-1',
  async (job) => {
    await second.add('step', job.data, { jobId: `${job.id}-2` });
  },
  { connection, concurrency },
);
const hop2 = new Worker(
  'hop-2',
  async () => {
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    completed += 1;
  },
  { connection, concurrency },
);

const server = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(req.url === '/count' ? { completed } : { ok: connection.status === 'ready' }));
}).listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => {
  server.close();
  void Promise.all([hop1.close(), hop2.close(), second.close()])
    .then(() => connection.quit())
    .then(() => process.exit(0));
});
