import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;
const STATIC_SEGMENT = /^[a-z][a-z0-9-]{0,31}$/;

/** Where a request keeps the route that matched and the mount path it matched under (symbol keys: no clash with Express's own). */
const ROUTE = Symbol('route');
const MATCHED_BASE = Symbol('matchedBase');
type Tracked = Request & { [ROUTE]?: unknown; [MATCHED_BASE]?: string };

/** The full pattern of the route that matched (mount path + route path), if one did. */
function matchedPattern(req: Tracked): string | undefined {
  const pattern = (req[ROUTE] as { path?: unknown } | undefined)?.path;
  if (typeof pattern !== 'string') return undefined;
  return `${req[MATCHED_BASE] ?? ''}${pattern === '/' ? '' : pattern}` || '/';
}

/**
 * What a log line says about where a request went, without the ids in it (a recipient id may be
 * an e-mail address): the full route pattern (`/v1/recipients/:id`, mount path included) when a
 * route matched; otherwise the path with every segment but the first two lowercase words
 * (`/v1/recipients`) replaced by `*`.
 */
export function loggedRoute(req: Request): string {
  const matched = matchedPattern(req as Tracked);
  if (matched) return matched;
  const segments = req.originalUrl.split('?')[0]!.split('/').slice(1);
  return `/${segments.map((segment, i) => (i < 2 && STATIC_SEGMENT.test(segment) ? segment : '*')).join('/')}`;
}

const tracked = new WeakSet<object>();

/**
 * Records the full pattern of the route that matched (mount path + route path) at the moment
 * the router assigns `req.route`: by the time the response finishes, an error passed to
 * `next()` has taken the request out of its router and `req.baseUrl` no longer says where it was.
 * The accessor is defined once on the app's request prototype (what Express gives every `req`),
 * not on each request: a per-request `defineProperty` cost a few µs and turned every request
 * object into a slow dictionary-mode object for the rest of its path.
 */
function trackMatchedRoute(req: Request): void {
  const proto = Object.getPrototypeOf(req) as object | null;
  if (proto === null || tracked.has(proto)) return;
  tracked.add(proto);
  Object.defineProperty(proto, 'route', {
    configurable: true,
    enumerable: true,
    get(this: Tracked) {
      return this[ROUTE];
    },
    // The pattern is put together only when a log line asks (loggedRoute), not on every request.
    // A route matched at the app's own level (the intake's POST) has no mount path: nothing more
    // is added to the request then (an absent base reads as ''), unless an earlier match left one.
    set(this: Tracked, value: unknown) {
      this[ROUTE] = value;
      const base = this.baseUrl;
      if (base !== '' || this[MATCHED_BASE] !== undefined) this[MATCHED_BASE] = base;
    },
  });
}

/**
 * A request id (the caller's `x-request-id` if sane), echoed back; a debug line per request
 * when the logger is at debug (at info, nothing is registered per request).
 */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const presented = req.headers['x-request-id'];
    req.id = typeof presented === 'string' && REQUEST_ID.test(presented) ? presented : randomUUID();
    res.setHeader('x-request-id', req.id);
    trackMatchedRoute(req);
    if (logger.isLevelEnabled('debug')) {
      const started = performance.now();
      res.on('finish', () => {
        logger.debug(
          { reqId: req.id, method: req.method, route: loggedRoute(req), status: res.statusCode, ms: Math.round(performance.now() - started) },
          'request',
        );
      });
    }
    next();
  };
}
