import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Several middlewares run as ONE router layer, in order; the first error goes to `next(error)`.
 * Each layer Express walks costs a path match and a `req.url` trim and restore: on the intake's
 * path, where the same three middlewares (size check, tenant key, JSON body) guard every route,
 * one layer instead of three. For middlewares that call `next()` or `next(error)` only (never
 * `next('route')`); a synchronous throw reaches Express's own catch like any middleware's.
 */
export function inOrder(...handlers: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error) {
        next(error);
        return;
      }
      const handler = handlers[index];
      index += 1;
      if (handler === undefined) next();
      else void handler(req, res, step);
    };
    step();
  };
}
