import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { NotifyError } from '@notify/core';
import { createLogger } from '@notify/runtime';
import type { RecipientStore } from '@notify/pipeline';
import { errorMiddleware } from '../../apps/api/src/error-middleware';
import { requestContext } from '../../apps/api/src/request-context';
import { recipientsRouter } from '../../apps/api/src/routes/recipients';

/**
 * Request log lines name the route pattern with its mount path
 * (`/v1/recipients/:id`, not the router's `/:id`) and never the ids in the path, which may
 * be e-mail addresses or phone numbers.
 */
const EMAIL_ID = 'ayse.yilmaz@example.com';
const PHONE_ID = 'tel:905551112233';

function app() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(
        ...chunk
          .toString()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      );
      callback();
    },
  });
  const logger = createLogger('api', 'debug', stream);
  const store = { get: async () => undefined, put: async () => true, delete: async () => false } as unknown as RecipientStore;
  const server = express();
  server.use(requestContext(logger));
  server.use(
    '/v1/recipients',
    (_req, res, next) => {
      res.locals.tenant = 't';
      next();
    },
    recipientsRouter({ recipients: store }),
  );
  server.use((_req, _res, next) => next(new NotifyError('NOT_FOUND', 'no route')));
  server.use(errorMiddleware(logger));
  return { server, lines };
}

it('logs the full route pattern of a matched route, without the id', async () => {
  const { server, lines } = app();
  await request(server)
    .get(`/v1/recipients/${encodeURIComponent(EMAIL_ID)}`)
    .expect(404);
  await request(server)
    .delete(`/v1/recipients/${encodeURIComponent(PHONE_ID)}`)
    .expect(404);
  const requests = lines.filter((l) => l.msg === 'request');
  expect(requests.map((l) => [l.method, l.route, l.status])).toEqual([
    ['GET', '/v1/recipients/:id', 404],
    ['DELETE', '/v1/recipients/:id', 404],
  ]);
  const text = JSON.stringify(lines);
  expect(text).not.toContain('ayse');
  expect(text).not.toContain('5551112233');
});

it('redacts the segments of a path no route matched', async () => {
  const { server, lines } = app();
  await request(server)
    .get(`/v1/unknown/${encodeURIComponent(EMAIL_ID)}/more`)
    .expect(404);
  await request(server)
    .get(`/${encodeURIComponent(EMAIL_ID)}`)
    .expect(404);
  const routes = lines.filter((l) => l.msg === 'request').map((l) => l.route);
  expect(routes).toEqual(['/v1/unknown/*/*', '/*']);
  expect(JSON.stringify(lines)).not.toContain('ayse');
});
