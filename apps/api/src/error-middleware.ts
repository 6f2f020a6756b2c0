import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ERROR_CATALOG, NotifyError, isNotifyError, type ErrorCode } from '@notify/core';
import { isRedisUnavailable } from '@notify/pipeline';
import { loggedRoute } from './request-context';

/**
 * The one place errors become responses: `{ error: { code, message, details? } }`. Body-parser
 * failures (bad JSON, too large, wrong type) are the client's: 4xx, never a 500.
 */
export function errorMiddleware(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const notifyError = toNotifyError(error);
    if (notifyError.httpStatus >= 500) {
      logger.error({ err: notifyError.cause ?? notifyError, reqId: req.id, route: loggedRoute(req) }, 'request failed');
    }
    // A Retry-After the route set (a tenant's limit, the admin throttle) says more than 1 s.
    if (notifyError.retryable && !res.hasHeader('retry-after')) res.set('retry-after', '1');
    res.status(notifyError.httpStatus).json({
      error: { code: notifyError.code, message: notifyError.message, ...(notifyError.details ? { details: notifyError.details } : {}) },
    });
  };
}

/**
 * Answers a declared `Content-Length` over the limit with 413 at once, and closes the
 * connection: body-parser would first drain the whole body (a client could make us read
 * megabytes, slowly, just to be refused).
 */
export function refuseOversizedBody(limitBytes: number) {
  return (req: Request, res: Response, next: NextFunction) => {
    const declared = Number(req.get('content-length'));
    if (Number.isFinite(declared) && declared > limitBytes) {
      res.set('connection', 'close');
      next(new NotifyError('PAYLOAD_TOO_LARGE', `the body (${declared} bytes) exceeds the ${limitBytes}-byte limit`));
      return;
    }
    next();
  };
}

/** The catalog code for a status answered by code we do not own (the first one with that status). */
function codeForStatus(status: number): ErrorCode {
  const match = (Object.keys(ERROR_CATALOG) as ErrorCode[]).find((code) => ERROR_CATALOG[code].httpStatus === status);
  return match ?? (status >= 500 ? 'INTERNAL' : 'VALIDATION_FAILED');
}

/**
 * For routers we mount but do not write (bull-board): their error answers (`{ error: 'Queue is
 * read-only' }`, 404s, 405s) are rewritten into the documented `{ error: { code, message } }`.
 */
export function documentedErrorShape() {
  return (_req: Request, res: Response, next: NextFunction) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      if (res.statusCode < 400) return json(body);
      const inner = (body as { error?: unknown } | null)?.error;
      if (typeof inner === 'object' && inner !== null && 'code' in inner) return json(body);
      const text = (body as { message?: unknown } | null)?.message ?? inner;
      const message = typeof text === 'string' && text.length > 0 ? text.slice(0, 300) : `HTTP ${res.statusCode}`;
      return json({ error: { code: codeForStatus(res.statusCode), message } });
    };
    next();
  };
}

function toNotifyError(error: unknown): NotifyError {
  if (isNotifyError(error)) return error;
  const bodyError = error as { type?: string; status?: number; message?: string };
  switch (bodyError.type) {
    case 'entity.parse.failed':
      return new NotifyError('MALFORMED_JSON', `the body is not valid JSON: ${bodyError.message ?? ''}`.trim());
    case 'entity.too.large':
      return new NotifyError('PAYLOAD_TOO_LARGE', 'the body exceeds the size limit');
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new NotifyError('UNSUPPORTED_MEDIA_TYPE', bodyError.message ?? 'unsupported body encoding');
    default:
      if (bodyError.status !== undefined && bodyError.status >= 400 && bodyError.status < 500) {
        return new NotifyError('VALIDATION_FAILED', bodyError.message ?? 'bad request', { cause: error });
      }
      // Redis down or failing over (a cluster's CLUSTERDOWN, closed node connections...) on any
      // route: a 503 with Retry-After the client can retry, not a 500.
      if (isRedisUnavailable(error)) return new NotifyError('DEPENDENCY_UNAVAILABLE', 'the store (Redis) did not answer; retry', { cause: error });
      return new NotifyError('INTERNAL', 'unexpected error', { cause: error });
  }
}

declare module 'http' {
  interface IncomingMessage {
    id?: string;
  }
}
