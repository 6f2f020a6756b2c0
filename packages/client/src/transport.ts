import { NotifyError, type NotifyErrorCode } from './errors';
import { parseRetryAfter, retryDelayMs, type RetryPolicy } from './retry-policy';

export interface RetryInfo {
  method: string;
  path: string;
  /** The attempt that failed (from 1). */
  attempt: number;
  /** How long the client waits before the next one. */
  delayMs: number;
  error: NotifyError;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  retry: RetryPolicy;
  /** Per attempt. */
  timeoutMs: number;
  fetch: typeof fetch;
  onRetry?: ((info: RetryInfo) => void) | undefined;
}

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined> | undefined;
  body?: unknown;
  /**
   * Whether repeating it is harmless (reads, PUT, DELETE, intake keyed by event id). A call that
   * is not is retried only when the api cannot have acted on it: a 429, or a refused connection.
   */
  idempotent: boolean;
  signal?: AbortSignal | undefined;
}

export interface Answer {
  status: number;
  body: unknown;
}

/** Statuses that mean "not now": the api did not act on the request. */
const RETRY_STATUSES = new Set([429, 503]);

function url(base: string, path: string, query: Call['query']): string {
  const target = new URL(path, base.endsWith('/') ? base : `${base}/`);
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) target.searchParams.set(name, String(value));
  return target.href;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function apiError(status: number, body: unknown, response: Response): NotifyError {
  const error = (body as { error?: { code?: string; message?: string; details?: { field: string; reason: string }[] } } | undefined)?.error;
  return new NotifyError({
    code: (error?.code as NotifyErrorCode | undefined) ?? 'UNEXPECTED_RESPONSE',
    message: error?.message ?? `the api answered ${status}`,
    status,
    requestId: response.headers.get('x-request-id') ?? undefined,
    details: error?.details ?? [],
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
  });
}

/** The socket-level code under fetch's "fetch failed" (undici puts it in `cause`). */
function causeCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });

/** One call with the retry policy: the same body every time, so intake stays idempotent by event id. */
export async function send(options: TransportOptions, call: Call): Promise<Answer> {
  const started = Date.now();
  const target = url(options.baseUrl, call.path, call.query);
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await attemptOnce(options, call, target, body);
    if ('answer' in outcome) return outcome.answer;
    const { error, retryable } = outcome;
    const delayMs = retryDelayMs(options.retry, attempt, error.retryAfterMs);
    const inTime = Date.now() - started + delayMs <= options.retry.maxElapsedMs;
    if (!retryable || attempt >= options.retry.maxAttempts || !inTime || call.signal?.aborted) throw error;
    options.onRetry?.({ method: call.method, path: call.path, attempt, delayMs, error });
    await sleep(delayMs, call.signal);
  }
}

type Outcome = { answer: Answer } | { error: NotifyError; retryable: boolean };

async function attemptOnce(options: TransportOptions, call: Call, target: string, body: string | undefined): Promise<Outcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const abort = () => controller.abort(call.signal?.reason);
  call.signal?.addEventListener('abort', abort, { once: true });
  try {
    const response = await options.fetch(target, {
      method: call.method,
      headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
      signal: controller.signal,
    });
    const parsed = await readJson(response);
    if (response.ok) return { answer: { status: response.status, body: parsed } };
    const error = apiError(response.status, parsed, response);
    // A used-up daily quota is a 429 too, but nothing changes before 00:00 UTC: not retried.
    const refusedForNow = RETRY_STATUSES.has(response.status) && error.code !== 'QUOTA_EXCEEDED';
    return { error, retryable: refusedForNow && (call.idempotent || response.status === 429) };
  } catch (cause) {
    if (call.signal?.aborted) throw cause;
    const timedOut = controller.signal.aborted;
    const code = causeCode(cause);
    const error = new NotifyError({
      code: timedOut ? 'TIMEOUT' : 'NETWORK_ERROR',
      message: timedOut ? `no answer within ${options.timeoutMs} ms` : `no answer: ${code ?? (cause as Error).message}`,
      status: 0,
      cause,
    });
    // A refused connection carried nothing; anything later may have reached the api.
    return { error, retryable: call.idempotent || code === 'ECONNREFUSED' };
  } finally {
    clearTimeout(timer);
    call.signal?.removeEventListener('abort', abort);
  }
}
