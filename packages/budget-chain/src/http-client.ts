import { Agent, request, type Dispatcher } from 'undici';
import type { Deadline } from './deadline';
import { DeadlineExceededError, DependencyFailedError, isBudgetError, isDeadlineExceeded } from './errors';
import { deadlineHeaders } from './header';
import type { BudgetObserver } from './observer';

export interface KeepAliveAgentOptions {
  /** Sockets per origin. @defaultValue 64 */
  connections?: number;
  /** How long an idle socket stays open. @defaultValue 10_000 */
  keepAliveTimeoutMs?: number;
}

/**
 * One keep-alive agent per client process: a healthy call reuses a socket instead of paying
 * a TCP handshake out of its few milliseconds of budget. (An aborted HTTP/1.1 request costs
 * its socket: closing it is how the dependency learns the caller gave up.)
 */
export function createKeepAliveAgent(options: KeepAliveAgentOptions = {}): Agent {
  return new Agent({
    connections: options.connections ?? 64,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
    pipelining: 1,
  });
}

export interface BudgetedGetOptions {
  /** The step's deadline (usually `StepContext.deadline`); its remaining time is sent along. */
  deadline: Deadline;
  /** Step name for errors. @defaultValue deadline.step */
  step?: string;
  dispatcher?: Dispatcher;
  /**
   * When the deadline aborts: true aborts the HTTP request (the dependency sees the socket
   * close and can stop); false only stops waiting and lets the request run to completion in
   * the background (the no-cancellation baseline the seed measures). @defaultValue true
   */
  cancel?: boolean;
  /**
   * With `cancel`, when the deadline *expires* (not on a cancellation): stop waiting at once,
   * but close the socket only if the dependency has not answered within this many ms. A
   * dependency that honours the propagated deadline stops by itself at the same instant and
   * answers 504; that answer is read and drained, and its keep-alive socket goes back to the
   * pool instead of costing a socket close here and a reconnect (TCP handshake, a socket error
   * formatted with its stack) on the next call. A dependency that ignores its deadline is cut
   * off `cancelGraceMs` later. A cancellation (client gone, sibling failed) closes at once:
   * the dependency has no other way to learn it. @defaultValue 0 (close at once)
   */
  cancelGraceMs?: number;
  observer?: BudgetObserver;
  headers?: Readonly<Record<string, string>>;
}

/**
 * GET a JSON document within a deadline, propagating the remaining time as
 * `x-request-timeout-ms`. Resolves with the parsed body on 2xx; rejects with the deadline's
 * own reason (DeadlineExceededError / CancelledError) when it aborts, a DeadlineExceededError
 * when the dependency reports it ran out of the propagated time (504 DEADLINE_EXCEEDED), and
 * a DependencyFailedError for any other status or a network failure.
 */
export async function budgetedGetJson(url: string, options: BudgetedGetOptions): Promise<unknown> {
  const { deadline } = options;
  const step = options.step ?? deadline.step;
  deadline.throwIfAborted();
  const headers = { ...options.headers, ...deadlineHeaders(deadline.remainingMs()), accept: 'application/json' };

  if (options.cancel === false) {
    // Stop waiting at the deadline, but never abort: the request and its body drain later.
    const work = request(url, { method: 'GET', headers, dispatcher: options.dispatcher }).then((response) => readJson(response, step, deadline));
    try {
      return await deadline.race(work);
    } catch (error: unknown) {
      throw deadline.signal.aborted ? deadline.signal.reason : asDependencyError(error, step, url);
    }
  }

  const graceMs = options.cancelGraceMs ?? 0;
  if (graceMs > 0) return getWithGrace(url, headers, step, graceMs, options);

  try {
    const response = await request(url, { method: 'GET', headers, signal: deadline.signal, dispatcher: options.dispatcher });
    return await readJson(response, step, deadline);
  } catch (error: unknown) {
    if (deadline.signal.aborted) {
      options.observer?.onCancelSent?.(step);
      throw deadline.signal.reason;
    }
    throw asDependencyError(error, step, url);
  }
}

/**
 * The request runs on its own controller: the caller stops waiting when the deadline aborts
 * (`deadline.race`), the socket is closed at once on a cancellation, or `graceMs` after an
 * expiry unless the dependency's own answer (its 504 at the propagated deadline) arrived first.
 */
async function getWithGrace(url: string, headers: Record<string, string>, step: string, graceMs: number, options: BudgetedGetOptions): Promise<unknown> {
  const { deadline } = options;
  const controller = new AbortController();
  let settled = false;
  let graceTimer: ReturnType<Deadline['timer']['set']> | undefined;
  const off = deadline.onAbort((reason) => {
    options.observer?.onCancelSent?.(step);
    if (!isDeadlineExceeded(reason)) {
      controller.abort(reason);
      return;
    }
    graceTimer = deadline.timer.set(() => {
      graceTimer = undefined;
      if (!settled) controller.abort(reason);
    }, graceMs);
  });
  const work = request(url, { method: 'GET', headers, signal: controller.signal, dispatcher: options.dispatcher })
    .then((response) => readJson(response, step, deadline))
    .finally(() => {
      settled = true;
      off();
      if (graceTimer !== undefined) deadline.timer.clear(graceTimer);
    });
  try {
    return await deadline.race(work);
  } catch (error: unknown) {
    throw deadline.signal.aborted ? deadline.signal.reason : asDependencyError(error, step, url);
  }
}

async function readJson(response: Dispatcher.ResponseData, step: string, deadline: Deadline): Promise<unknown> {
  const { statusCode, body } = response;
  if (statusCode >= 200 && statusCode < 300) {
    try {
      return await body.json();
    } catch (error: unknown) {
      if (deadline.signal.aborted) throw deadline.signal.reason;
      throw new DependencyFailedError(step, `${step} answered ${statusCode} with a body that is not JSON`, { upstreamStatus: statusCode, cause: error });
    }
  }
  const text = await body.text().catch(() => '');
  const code = errorCodeOf(text);
  if (statusCode === 504 && code === 'DEADLINE_EXCEEDED') {
    throw new DeadlineExceededError(step, deadline.budgetMs, { message: `${step} stopped at its propagated deadline (${statusCode})` });
  }
  throw new DependencyFailedError(step, `${step} answered ${statusCode}${code === undefined ? '' : ` ${code}`}`, { upstreamStatus: statusCode });
}

function errorCodeOf(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const error = (parsed as { error?: unknown }).error;
    if (typeof error !== 'object' || error === null) return undefined;
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

function asDependencyError(error: unknown, step: string, url: string): Error {
  if (isBudgetError(error)) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new DependencyFailedError(step, `${step} unreachable at ${new URL(url).origin}: ${detail}`, { cause: error });
}
