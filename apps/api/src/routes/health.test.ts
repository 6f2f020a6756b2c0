import express from 'express';
import request from 'supertest';
import type { RedisClient } from '@notify/runtime';
import { healthRouter } from './health';

/** /readyz as a balancer reads it: ready only when Redis answers, the warm-up is done and the api is not draining. */
describe('health router', () => {
  const redis = { ping: async () => 'PONG' } as unknown as RedisClient;

  it('answers 503 warming-up until the start-up warm-up ends, then ready; /healthz is 200 throughout', async () => {
    let warming = true;
    const app = express().use(healthRouter({ redis, isDraining: () => false, isWarmingUp: () => warming }));
    expect((await request(app).get('/healthz')).status).toBe(200);
    const cold = await request(app).get('/readyz');
    expect([cold.status, cold.body]).toEqual([503, { status: 'warming-up' }]);
    warming = false;
    const warm = await request(app).get('/readyz');
    expect([warm.status, warm.body]).toEqual([200, { status: 'ready', redis: 'ok' }]);
  });

  it('says draining before warming-up', async () => {
    const app = express().use(healthRouter({ redis, isDraining: () => true, isWarmingUp: () => true }));
    const res = await request(app).get('/readyz');
    expect([res.status, res.body]).toEqual([503, { status: 'draining' }]);
  });
});
