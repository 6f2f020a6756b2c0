import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { NotifyError } from '@notify/core';
import { createLogger } from '@notify/runtime';
import { errorMiddleware } from '../../apps/api/src/error-middleware';
import { inOrder } from '../../apps/api/src/middleware-chain';
import { requestContext } from '../../apps/api/src/request-context';

/**
 * Request ids are echoed (or made), and the logged route pattern holds for a route at the app
 * level behind one-layer guards (how POST /v1/notifications is routed) as for a mounted router.
 */
function app(level: 'debug' | 'info') {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  const logger = createLogger('api', level, stream);
  const server = express();
  server.use(requestContext(logger));
  const guards = inOrder(
    (_req, _res, next) => next(),
    (req, _res, next) => next(req.get('authorization') === 'Bearer ok' ? undefined : new NotifyError('UNAUTHORIZED', 'no key')),
  );
  server.post('/v1/things', guards, (_req, res) => {
    res.status(202).json({ ok: true });
  });
  const router = express.Router();
  router.get('/:id', () => {
    throw new NotifyError('NOT_FOUND', 'none');
  });
  server.use('/v1/things', guards, router);
  server.use((_req, _res, next) => next(new NotifyError('NOT_FOUND', 'no route')));
  server.use(errorMiddleware(logger));
  return { server, lines };
}

it('echoes a sane x-request-id and makes one for a missing or insane one', async () => {
  const { server } = app('info');
  const echoed = await request(server).post('/v1/things').set('authorization', 'Bearer ok').set('x-request-id', 'abc.DEF-1_2').expect(202);
  expect(echoed.headers['x-request-id']).toBe('abc.DEF-1_2');
  const made = await request(server).post('/v1/things').set('authorization', 'Bearer ok').set('x-request-id', 'bad id with spaces').expect(202);
  expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  const refused = await request(server).post('/v1/things').expect(401);
  expect(refused.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
});

it('logs the route pattern of an app-level route and of a mounted route that failed, at debug only', async () => {
  const { server, lines } = app('debug');
  await request(server).post('/v1/things').set('authorization', 'Bearer ok').expect(202);
  await request(server).get('/v1/things/secret-id').set('authorization', 'Bearer ok').expect(404);
  await request(server).post('/v1/things').expect(401);
  const requests = lines.filter((l) => l.msg === 'request').map((l) => [l.method, l.route, l.status]);
  expect(requests).toEqual([
    ['POST', '/v1/things', 202],
    ['GET', '/v1/things/:id', 404],
    ['POST', '/v1/things', 401],
  ]);
  expect(JSON.stringify(lines)).not.toContain('secret-id');

  const quiet = app('info');
  await request(quiet.server).post('/v1/things').set('authorization', 'Bearer ok').expect(202);
  expect(quiet.lines.filter((l) => l.msg === 'request')).toEqual([]);
});
