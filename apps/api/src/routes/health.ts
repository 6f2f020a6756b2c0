import { Router } from 'express';
import type { RedisClient } from '@notify/runtime';

/** /healthz: the process is alive. /readyz: Redis answers, the start-up warm-up is done and the instance is not draining. */
export function healthRouter(deps: { redis: RedisClient; isDraining: () => boolean; isWarmingUp?: () => boolean }): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    if (deps.isDraining()) {
      res.status(503).json({ status: 'draining' });
      return;
    }
    if (deps.isWarmingUp?.() === true) {
      res.status(503).json({ status: 'warming-up' });
      return;
    }
    try {
      await Promise.race([deps.redis.ping(), new Promise((_resolve, reject) => setTimeout(() => reject(new Error('ping timed out')), 1_000).unref())]);
      res.json({ status: 'ready', redis: 'ok' });
    } catch (error) {
      res.status(503).json({ status: 'not-ready', redis: (error as Error).message });
    }
  });
  return router;
}
