import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { NotifyError, isNotifyError } from '@notify/core';

/**
 * The one place errors become responses: `{ error: { code, message, details? } }`. Body-parser
 * failures (bad JSON, too large, wrong type) are the client's: 4xx, never a 500.
 */
export function errorMiddleware(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const notifyError = toNotifyError(error);
    if (notifyError.httpStatus >= 500) {
      logger.error({ err: notifyError.cause ?? notifyError, reqId: req.id, path: req.path }, 'request failed');
    }
    if (notifyError.retryable) res.set('retry-after', '1');
    res.status(notifyError.httpStatus).json({
      error: { code: notifyError.code, message: notifyError.message, ...(notifyError.details ? { details: notifyError.details } : {}) },
    });
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
      return new NotifyError('INTERNAL', 'unexpected error', { cause: error });
  }
}

declare module 'http' {
  interface IncomingMessage {
    id?: string;
  }
}
