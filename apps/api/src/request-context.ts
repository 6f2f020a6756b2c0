import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;
const STATIC_SEGMENT = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * What a log line says about where a request went, without the ids in it (a recipient id may be
 * an e-mail address): the full route pattern (`/v1/recipients/:id`, mount path included) when a
 * route matched; otherwise the path with every segment but the first two lowercase words
 * (`/v1/recipients`) replaced by `*`.
 */
export function loggedRoute(req: Request): string {
  const matched = MATCHED.get(req);
  if (matched) return matched;
  const segments = req.originalUrl.split('?')[0]!.split('/').slice(1);
  return `/${segments.map((segment, i) => (i < 2 && STATIC_SEGMENT.test(segment) ? segment : '*')).join('/')}`;
}

const MATCHED = new WeakMap<Request, string>();

/**
 * Records the full pattern of the route that matched (mount path + route path) at the moment
 * the router assigns `req.route`: by the time the response finishes, an error passed to
 * `next()` has taken the request out of its router and `req.baseUrl` no longer says where it was.
 */
function recordMatchedRoute(req: Request): void {
  let route: unknown;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set: (value: unknown) => {
      route = value;
      const pattern = (value as { path?: unknown } | undefined)?.path;
      if (typeof pattern === 'string') MATCHED.set(req, `${req.baseUrl}${pattern === '/' ? '' : pattern}` || '/');
    },
  });
}

/** A request id (the caller's `x-request-id` if sane), echoed back and bound to a child logger. */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const presented = req.get('x-request-id');
    req.id = presented && REQUEST_ID.test(presented) ? presented : randomUUID();
    res.set('x-request-id', req.id);
    recordMatchedRoute(req);
    const started = performance.now();
    res.on('finish', () => {
      logger.debug(
        { reqId: req.id, method: req.method, route: loggedRoute(req), status: res.statusCode, ms: Math.round(performance.now() - started) },
        'request',
      );
    });
    next();
  };
}
