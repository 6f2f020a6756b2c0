import { setMaxListeners } from 'node:events';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Clock, Timer } from './clock';
import { Deadline } from './deadline';
import { isInvalidDeadlineHeader, type InvalidDeadlineHeaderError } from './errors';
import { readPropagatedTimeout } from './header';

const LOCALS_KEY = 'budgetChainDeadline';

export interface DeadlineMiddlewareOptions {
  /** Name of the work this server does, used in errors. @defaultValue 'request' */
  step?: string;
  /**
   * Subtracted from a propagated budget: the time the request spent on the wire and in
   * queues before this process saw it. @defaultValue 0
   */
  transitAllowanceMs?: number;
  /** Budget when the caller sent no deadline header. @defaultValue Infinity (cancellation only) */
  defaultBudgetMs?: number;
  /** Upper bound on any budget, propagated or default (an edge caps what clients ask for). @defaultValue Infinity */
  maxBudgetMs?: number;
  clock?: Clock;
  timer?: Timer;
  /** A long-lived signal every request deadline follows, e.g. the server's shutdown. */
  parentSignal?: AbortSignal;
  /** Answer for a malformed or negative header. @defaultValue 400 `{error:{code,header,message}}` */
  onInvalidHeader?: (error: InvalidDeadlineHeaderError, req: Request, res: Response) => void;
}

function rejectInvalidHeader(error: InvalidDeadlineHeaderError, _req: Request, res: Response): void {
  res.status(400).json({ error: { code: error.code, header: error.header, message: error.message } });
}

/**
 * Turns the propagated deadline and the client's disconnect into one AbortSignal the
 * handler's work observes (`requestDeadline(res).signal`):
 * - the signal aborts with DeadlineExceededError when the propagated budget, less the transit
 *   allowance, runs out (an already-spent budget aborts before the handler runs);
 * - it aborts with CancelledError when the response closes before it finished (the client
 *   went away: an HTTP/1.1 client cancels by closing its socket).
 * The deadline is disposed when the response closes, so nothing stays linked to
 * `parentSignal` after a request.
 */
export function deadlineMiddleware(options: DeadlineMiddlewareOptions = {}): RequestHandler {
  const transit = options.transitAllowanceMs ?? 0;
  const fallback = options.defaultBudgetMs ?? Number.POSITIVE_INFINITY;
  const cap = options.maxBudgetMs ?? Number.POSITIVE_INFINITY;
  const onInvalid = options.onInvalidHeader ?? rejectInvalidHeader;
  // Every in-flight request links one listener to the long-lived parent: more than Node's
  // default 10 is the expected fan-out here, not a leak (the listener-growth test proves it).
  if (options.parentSignal !== undefined) setMaxListeners(0, options.parentSignal);

  return (req: Request, res: Response, next: NextFunction): void => {
    let propagated: number | undefined;
    try {
      propagated = readPropagatedTimeout(req.headers);
    } catch (error: unknown) {
      if (isInvalidDeadlineHeader(error)) {
        onInvalid(error, req, res);
        return;
      }
      throw error;
    }
    const budgetMs = Math.min(cap, propagated === undefined ? fallback : propagated - transit);
    const deadline = new Deadline({
      budgetMs,
      step: options.step ?? 'request',
      clock: options.clock,
      timer: options.timer,
      parent: options.parentSignal,
    });
    res.locals[LOCALS_KEY] = deadline;
    res.once('close', () => {
      if (!res.writableFinished) deadline.cancel('client disconnected');
      deadline.dispose();
    });
    next();
  };
}

/** The request's deadline set by `deadlineMiddleware`; throws if the middleware is missing. */
export function requestDeadline(res: Response): Deadline {
  const deadline: unknown = res.locals[LOCALS_KEY];
  if (!(deadline instanceof Deadline)) throw new Error('requestDeadline: deadlineMiddleware() did not run for this route');
  return deadline;
}
