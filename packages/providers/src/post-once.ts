import { Pool, type Dispatcher } from 'undici';

/** What one POST came to: the answer (status and body text), or the error and whether our own call timeout caused it. */
export type PostOutcome = { ok: true; statusCode: number; body: string } | { ok: false; error: unknown; timedOut: boolean };

export interface PostOnceRequest {
  path: string;
  /** Flat name/value list (undici's cheapest header form). */
  headers: string[];
  body: string;
  /** The whole call, from now: queueing for a socket, sending, the answer. */
  timeoutMs: number;
}

/**
 * The keep-alive pool of one provider's origin: `connections` sockets, each call bounded by
 * `timeoutMs` (connecting by at most 2 s of it).
 */
export function providerPool(origin: string, options: { connections: number; timeoutMs: number }): Pool {
  return new Pool(origin, {
    connections: options.connections,
    keepAliveTimeout: 30_000,
    connectTimeout: Math.min(options.timeoutMs, 2_000),
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
}

/**
 * One POST through an undici dispatcher, answer read whole as text: the dispatch handler API
 * directly, without `request()`'s response stream, async resource and AbortSignal, which cost
 * more CPU than the simulators' small answers are worth (a bench profile: docs/benchmarks-pipeline.md,
 * "Settings the figures depend on"). One timer per call; when it fires the call is aborted at once if
 * it is on a socket, or as it reaches one if still queued (as an aborted signal would be).
 */
export function postOnce(dispatcher: Dispatcher, request: PostOnceRequest): Promise<PostOutcome> {
  return new Promise<PostOutcome>((resolve) => {
    let controller: Dispatcher.DispatchController | undefined;
    let timedOut = false;
    let statusCode = 0;
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      timedOut = true;
      controller?.abort(new CallTimeoutError());
    }, request.timeoutMs);
    const settle = (outcome: PostOutcome) => {
      clearTimeout(timer);
      resolve(outcome);
    };
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (timedOut) c.abort(new CallTimeoutError());
      },
      onResponseStart(_c, code) {
        statusCode = code;
      },
      onResponseData(_c, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        settle({ ok: true, statusCode, body: chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8') });
      },
      onResponseError(_c, error) {
        settle({ ok: false, error, timedOut });
      },
    };
    dispatcher.dispatch({ path: request.path, method: 'POST', headers: request.headers, body: request.body }, handler);
  });
}

/** Our own call timeout (undici's headers and body timeouts raise their own errors). */
export class CallTimeoutError extends Error {
  readonly code = 'CALL_TIMEOUT';
  constructor() {
    super('no answer within the call timeout');
    this.name = 'CallTimeoutError';
  }
}
