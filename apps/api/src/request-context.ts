import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** A request id (the caller's `x-request-id` if sane), echoed back and bound to a child logger. */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const presented = req.get('x-request-id');
    req.id = presented && REQUEST_ID.test(presented) ? presented : randomUUID();
    res.set('x-request-id', req.id);
    const started = performance.now();
    res.on('finish', () => {
      logger.debug({ reqId: req.id, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(performance.now() - started) }, 'request');
    });
    next();
  };
}
