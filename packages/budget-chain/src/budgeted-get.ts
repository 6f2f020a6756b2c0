import { getGlobalDispatcher, type Dispatcher } from 'undici';
import type { TimerHandle } from './clock';
import type { Deadline } from './deadline';
import { DeadlineExceededError, DependencyFailedError, isBudgetError, isDeadlineExceeded } from './errors';
import type { BudgetObserver } from './observer';

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
 * One GET as an undici dispatch handler: undici hands us the call's own abort function when
 * the request goes onto a socket, and the body as chunks. Compared with `request()` this
 * skips, per call, an AbortController and its listener, an async resource, a Readable for
 * the body and the stream machinery that consumes it, and the response headers' object.
 *
 * The caller's promise settles once: with the answer, or with the deadline's reason as soon
 * as it aborts (the answer never waits). After that the response is still read to its end
 * (and dropped) so a keep-alive socket goes back to the pool; see BudgetedGetOptions for
 * when the request is aborted instead.
 */
export class BudgetedGet implements Dispatcher.DispatchHandler {
  /** undici's abort for this request, once it is on a socket (aborting then closes that socket). */
  private abortRequest: ((error?: Error) => void) | undefined;
  /** Set when the request must not be sent any more: it was still queued when its caller gave up. */
  private dropReason: Error | undefined;
  /** The response ended or failed. */
  private done = false;
  /** The caller's promise has settled. */
  private answered = false;
  private status = 0;
  private readonly chunks: Buffer[] = [];
  private offAbort: (() => void) | undefined;
  private graceTimer: TimerHandle | undefined;

  constructor(
    private readonly step: string,
    private readonly origin: string,
    private readonly options: BudgetedGetOptions,
    private readonly resolve: (value: unknown) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  start(path: string, headers: string[]): void {
    this.offAbort = this.options.deadline.onAbort(this.onDeadlineAbort);
    (this.options.dispatcher ?? getGlobalDispatcher()).dispatch({ origin: this.origin, path, method: 'GET', headers }, this);
  }

  onConnect(abort: (error?: Error) => void): void {
    // Thrown here, undici fails the request before writing it and leaves the socket alone;
    // calling `abort` instead would close a socket the request never used.
    if (this.dropReason !== undefined) throw this.dropReason;
    this.abortRequest = abort;
  }

  onHeaders(statusCode: number): boolean {
    if (statusCode >= 200) this.status = statusCode; // 1xx: informational, the answer follows
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (!this.answered) this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    this.end();
    if (this.answered) return;
    this.answered = true;
    const text = this.chunks.length === 1 ? (this.chunks[0] as Buffer).toString('utf8') : Buffer.concat(this.chunks).toString('utf8');
    const { status, step } = this;
    if (status >= 200 && status < 300) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error: unknown) {
        this.reject(new DependencyFailedError(step, `${step} answered ${status} with a body that is not JSON`, { upstreamStatus: status, cause: error }));
        return;
      }
      this.resolve(value);
      return;
    }
    const code = errorCodeOf(text);
    if (status === 504 && code === 'DEADLINE_EXCEEDED') {
      this.reject(new DeadlineExceededError(step, this.options.deadline.budgetMs, { message: `${step} stopped at its propagated deadline (${status})` }));
      return;
    }
    this.reject(new DependencyFailedError(step, `${step} answered ${status}${code === undefined ? '' : ` ${code}`}`, { upstreamStatus: status }));
  }

  onError(error: Error): void {
    this.end();
    if (this.answered) return;
    this.answered = true;
    this.reject(asDependencyError(error, this.step, this.origin));
  }

  private readonly onDeadlineAbort = (reason: Error): void => {
    this.offAbort = undefined; // the deadline drops its callbacks as it aborts
    if (this.done) return;
    this.answered = true;
    this.reject(reason);
    if (this.options.cancel === false) return; // the no-cancellation baseline: it runs to its end
    this.options.observer?.onCancelSent?.(this.step);
    const graceMs = this.options.cancelGraceMs ?? 0;
    if (graceMs > 0 && isDeadlineExceeded(reason) && this.abortRequest !== undefined) {
      // Expired while written: the dependency stops at the same deadline and answers 504 within
      // the grace, which is read and drained; only a dependency that does not is cut off.
      const { timer } = this.options.deadline;
      this.graceTimer = timer.set(() => {
        this.graceTimer = undefined;
        this.stop(reason);
      }, graceMs);
      return;
    }
    this.stop(reason);
  };

  /** Ends the request: dropped if not sent yet, else aborted (which closes its socket: how an HTTP/1.1 dependency learns it). */
  private stop(reason: Error): void {
    if (this.done) return;
    if (this.abortRequest === undefined) {
      this.dropReason = reason;
      return;
    }
    // undici builds an Error for the socket it closes, and the stream reads its stack: an
    // expected outcome, so no frames to capture (with source maps on, formatting them costs
    // more than the rest of the abort).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      this.abortRequest(reason);
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
  }

  private end(): void {
    this.done = true;
    if (this.offAbort !== undefined) {
      this.offAbort();
      this.offAbort = undefined;
    }
    if (this.graceTimer !== undefined) {
      this.options.deadline.timer.clear(this.graceTimer);
      this.graceTimer = undefined;
    }
  }
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

function asDependencyError(error: unknown, step: string, origin: string): Error {
  if (isBudgetError(error)) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new DependencyFailedError(step, `${step} unreachable at ${origin}: ${detail}`, { cause: error });
}
