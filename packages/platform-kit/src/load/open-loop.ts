import { Pool } from 'undici';

/** The intake's answer to one notification (0 = no answer: refused, timed out). */
export interface Answer {
  index: number;
  status: number;
  id?: string;
  error?: string;
  /** When it was due (ms since the load started) and when it was actually sent. */
  dueMs: number;
  sentMs: number;
}

export interface OpenLoopOptions {
  /** The intake's base URL; or `apiUrls`, several instances of it, not both. */
  apiUrl?: string;
  /** Several intake instances: requests go round-robin over them (one connection pool each). */
  apiUrls?: readonly string[];
  apiKey: string;
  ratePerSecond: number;
  /** Bounded in count and in time: stops at whichever comes first (at least one is required). */
  count?: number;
  seconds?: number;
  /** The request body of notification `index`. */
  next: (index: number) => object;
  /** One POST per notification, or one batch POST (<= 1,000) per tick with those due in it. */
  mode: 'single' | 'batch';
  /** Batch mode: how often due notifications are sent (default 50 ms). */
  tickMs?: number;
  /** Bound on requests in flight (one connection each: the client must not be the bottleneck it measures). */
  maxInFlight: number;
  /**
   * At the bound: 'skip' drops the work and counts it (protects the client, keeps the clock),
   * 'wait' sends it late and reports the lag (every notification is sent).
   */
  whenFull: 'skip' | 'wait';
  /** Keep every answer (ids for later reads); off for long runs, where only counters are kept. */
  keepAnswers?: boolean;
  requestTimeoutMs?: number;
  signal?: AbortSignal;
}

export interface OpenLoopResult {
  offered: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  /** Notifications whose request failed (no answer, or a non-200 batch). */
  failed: number;
  skippedForBackpressure: number;
  seconds: number;
  requestLatenciesMs: number[];
  /** Largest delay between a notification's due time and its sending (0 = truly open loop). */
  maxLagMs: number;
  /** In index order, with `keepAnswers`. */
  answers: Answer[];
}

const BATCH_MAX = 1_000;

/**
 * Open loop: notification i is due at i / rate seconds, whatever happened to the earlier
 * ones, so a slow system shows up as latency and backlog rather than as a politely slower
 * client. The one load generator of the repository (loadgen, the chaos scenario, benches).
 */
export async function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  if (options.count === undefined && options.seconds === undefined) throw new Error('runOpenLoop needs a count or seconds');
  if ((options.apiUrl === undefined) === (options.apiUrls === undefined)) throw new Error('runOpenLoop needs an apiUrl or apiUrls, not both');
  const urls = options.apiUrls ?? [options.apiUrl as string];
  if (urls.length === 0) throw new Error('runOpenLoop: apiUrls is empty');
  // The in-flight bound is over all of them; a pool opens its connections only as needed.
  const pools = urls.map((url) => new Pool(url, { connections: options.maxInFlight, pipelining: 1, keepAliveTimeout: 10_000 }));
  let requestsSent = 0;
  const result: OpenLoopResult = {
    offered: 0,
    accepted: 0,
    duplicates: 0,
    rejected: 0,
    failed: 0,
    skippedForBackpressure: 0,
    seconds: 0,
    requestLatenciesMs: [],
    maxLagMs: 0,
    answers: [],
  };
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const endMs = options.seconds === undefined ? Number.POSITIVE_INFINITY : options.seconds * 1_000;
  const total = options.count ?? Number.POSITIVE_INFINITY;
  const dueAt = (i: number) => (i * 1_000) / options.ratePerSecond;
  const timeout = options.requestTimeoutMs ?? 10_000;
  const inFlight = new Set<Promise<void>>();
  let nextIndex = 0;

  const record = (answer: Answer) => {
    if (answer.status === 202) result.accepted += 1;
    else if (answer.status === 200) result.duplicates += 1;
    else if (answer.status === 0) result.failed += 1;
    else result.rejected += 1;
    if (options.keepAnswers) result.answers.push(answer);
  };

  const send = async (first: number, bodies: object[], sentMs: number) => {
    const single = options.mode === 'single';
    const answerOf = (i: number, status: number, extra: { id?: string; error?: string } = {}): Answer => ({
      index: first + i,
      status,
      dueMs: dueAt(first + i),
      sentMs,
      ...extra,
    });
    const pool = pools[requestsSent % pools.length] as Pool;
    requestsSent += 1;
    const t0 = performance.now();
    try {
      const response = await pool.request({
        path: single ? '/v1/notifications' : '/v1/notifications/batch',
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${options.apiKey}` },
        body: JSON.stringify(single ? bodies[0] : { notifications: bodies }),
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      const body = (await response.body.json().catch(() => ({}))) as { id?: string; message?: string; results?: { id?: string; httpStatus: number }[] };
      if (single) {
        record(
          answerOf(0, response.statusCode, {
            ...(body.id ? { id: body.id } : {}),
            ...(response.statusCode >= 300 && body.message ? { error: body.message } : {}),
          }),
        );
      } else if (response.statusCode === 200 && body.results) {
        body.results.forEach((r, i) => record(answerOf(i, r.httpStatus, r.id ? { id: r.id } : {})));
      } else {
        bodies.forEach((_, i) => record(answerOf(i, 0, { error: `batch answered ${response.statusCode}` })));
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      bodies.forEach((_, i) => record(answerOf(i, 0, { error: message })));
    } finally {
      result.requestLatenciesMs.push(performance.now() - t0);
    }
  };

  // Every notification due before the end is offered, even when this loop wakes late (a busy
  // machine must show up as lag, not as fewer notifications).
  const last = Math.min(total, Math.ceil((endMs * options.ratePerSecond) / 1_000));
  try {
    while (nextIndex < last && !options.signal?.aborted) {
      const due = Math.min(last, Math.floor((elapsed() * options.ratePerSecond) / 1_000) + 1);
      while (nextIndex < due) {
        const size = options.mode === 'single' ? 1 : Math.min(BATCH_MAX, due - nextIndex);
        const first = nextIndex;
        nextIndex += size;
        result.offered += size;
        if (inFlight.size >= options.maxInFlight) {
          if (options.whenFull === 'skip') {
            result.skippedForBackpressure += size;
            continue;
          }
          while (inFlight.size >= options.maxInFlight) await Promise.race(inFlight);
        }
        const sentMs = elapsed();
        result.maxLagMs = Math.max(result.maxLagMs, sentMs - dueAt(first));
        const bodies = Array.from({ length: size }, (_, i) => options.next(first + i));
        const task = send(first, bodies, sentMs);
        const tracked = task.finally(() => inFlight.delete(tracked));
        inFlight.add(tracked);
      }
      // Sleep until the next notification is due (batch mode: at least one tick).
      const untilNext = dueAt(nextIndex) - elapsed();
      const sleep = options.mode === 'batch' ? Math.max(untilNext, options.tickMs ?? 50) : untilNext;
      // Always yield: with less than 1 ms to the next one (single POSTs above 1,000/s) a loop
      // that did not would never let the answers in, and every request would time out.
      if (nextIndex < last) await new Promise((resolve) => (sleep > 1 ? setTimeout(resolve, sleep) : setImmediate(resolve)));
    }
    await Promise.all(inFlight);
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
  result.seconds = elapsed() / 1_000;
  result.maxLagMs = Math.round(result.maxLagMs);
  result.answers.sort((a, b) => a.index - b.index);
  return result;
}

/**
 * Sends pre-made requests, one POST each at `ratePerSecond`, every one of them (late rather
 * than dropped at the in-flight bound), and keeps every answer: for runs that read each
 * notification afterwards (the chaos scenario, acceptance tests).
 */
export function sendEach(
  requests: readonly object[],
  options: Pick<OpenLoopOptions, 'apiUrl' | 'apiUrls' | 'apiKey' | 'ratePerSecond' | 'maxInFlight' | 'signal' | 'requestTimeoutMs'>,
): Promise<OpenLoopResult> {
  return runOpenLoop({ ...options, count: requests.length, next: (i) => requests[i] as object, mode: 'single', whenFull: 'wait', keepAnswers: true });
}
