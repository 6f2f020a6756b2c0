import { monotonicClock, systemTimer, type Clock, type Timer } from './clock';
import { raceAbort } from './deadline-race';
import { expiredReason, reasonFromParent } from './deadline-reasons';
import { CancelledError, DeadlineExceededError, isDeadlineExceeded } from './errors';
import { ExpiryTimer } from './expiry-timer';

export interface DeadlineOptions {
  /** Relative budget in ms from now. `Infinity` makes an unbounded deadline (cancellation only). */
  budgetMs: number;
  /** Name used in errors and metrics (`request`, `pricing`, `tariff`, ...). @defaultValue 'request' */
  step?: string;
  /** @defaultValue monotonicClock (`performance.now()`) */
  clock?: Clock;
  /** @defaultValue systemTimer (global setTimeout, unref'd) */
  timer?: Timer;
  /** A signal this deadline follows: when it aborts, so does this one. Linked by hand. */
  parent?: AbortSignal;
}

/**
 * A budget of time with a cancellation signal. `signal` aborts with a DeadlineExceededError
 * when the budget runs out, with a CancelledError when `cancel()` is called or the parent
 * aborts. Children are derived for sub-calls; each gets min(its share, what is left).
 *
 * Signals are linked by hand (Node 20's `AbortSignal.any` keeps dependants alive on
 * long-lived parents, and `AbortSignal.timeout` ignores fake timers): a child derived with
 * `child()` registers one callback in its parent Deadline's set (no EventTarget listener:
 * adding and removing those costs microseconds on every sub-call), a deadline that follows
 * a foreign `parent` signal adds one removable abort listener to it. `dispose()` removes
 * either and clears the timer, so a long-lived parent carries no residue from finished children.
 *
 * The expiry timer (and its boundary rule) is ExpiryTimer; the abort reasons a deadline gives
 * are in deadline-reasons.ts, racing work against it in deadline-race.ts.
 */
export class Deadline {
  readonly step: string;
  readonly budgetMs: number;
  readonly startedAt: number;
  readonly expiresAt: number;

  /** The clock and timer this deadline (and its children) run on. */
  readonly clock: Clock;
  readonly timer: Timer;
  /**
   * Made on first use of `signal`: most deadlines (a request's branches, its steps) are only
   * watched through `onAbort`, `race` and `aborted`, and an AbortController with its
   * EventTarget costs microseconds to build that a query pays five times over.
   */
  private controller: AbortController | undefined;
  private abortReason: Error | undefined;
  private expiry: ExpiryTimer | undefined;
  private parent: AbortSignal | undefined;
  /** Unsubscribes this deadline from the parent Deadline it was derived from (see `child`). */
  private unlinkParentDeadline: (() => void) | undefined;
  /** Called once on abort: children and races. A Set, not signal listeners: EventTarget costs microseconds per call. */
  private readonly abortCallbacks = new Set<(reason: Error) => void>();

  constructor(options: DeadlineOptions, parentDeadline?: Deadline) {
    if (Number.isNaN(options.budgetMs)) throw new RangeError('Deadline budgetMs must be a number');
    this.step = options.step ?? 'request';
    this.clock = options.clock ?? monotonicClock;
    this.timer = options.timer ?? systemTimer;
    this.budgetMs = Math.max(0, options.budgetMs);
    this.startedAt = this.clock.now();
    this.expiresAt = this.startedAt + this.budgetMs;

    const parent = options.parent;
    if (parent?.aborted) {
      this.abort(this.fromParent(parent.reason));
      return;
    }
    if (parentDeadline?.aborted) {
      this.abort(this.fromParent(parentDeadline.abortReason));
      return;
    }
    if (this.budgetMs <= 0) {
      this.abort(this.exceeded());
      return;
    }
    if (parent !== undefined) {
      this.parent = parent;
      parent.addEventListener('abort', this.onParentAbort, { once: true });
    }
    if (parentDeadline !== undefined) this.unlinkParentDeadline = parentDeadline.onAbort(this.onParentDeadlineAbort);
    if (Number.isFinite(this.budgetMs)) {
      this.expiry = new ExpiryTimer(this.clock, this.timer, this.expiresAt, () => this.abort(this.exceeded()));
      this.expiry.start(this.budgetMs);
    }
  }

  /** Aborts with a DeadlineExceededError when the budget runs out, with a CancelledError on `cancel()` or the parent's abort. */
  get signal(): AbortSignal {
    let controller = this.controller;
    if (controller === undefined) {
      controller = new AbortController();
      if (this.abortReason !== undefined) controller.abort(this.abortReason);
      this.controller = controller;
    }
    return controller.signal;
  }

  /** Why this deadline aborted (`signal.reason`, without building the signal); undefined while it has not. */
  get reason(): Error | undefined {
    return this.abortReason;
  }

  /** Milliseconds left, never negative; `Infinity` for an unbounded deadline. */
  remainingMs(): number {
    if (this.abortReason !== undefined) return 0;
    return Math.max(0, this.expiresAt - this.clock.now());
  }

  elapsedMs(): number {
    return this.clock.now() - this.startedAt;
  }

  /** True once the budget ran out (as opposed to a cancellation). */
  get expired(): boolean {
    return this.abortReason !== undefined && isDeadlineExceeded(this.abortReason);
  }

  get aborted(): boolean {
    return this.abortReason !== undefined;
  }

  /**
   * A deadline for a sub-call: budget min(shareMs, remaining), signal linked to this one.
   * The caller owns it and must `dispose()` it when the sub-call ends.
   */
  child(step: string, shareMs = Number.POSITIVE_INFINITY): Deadline {
    return new Deadline({ budgetMs: Math.min(shareMs, this.remainingMs()), step, clock: this.clock, timer: this.timer }, this);
  }

  /** Live links to this deadline: children not yet disposed and races still pending (a leak shows here). */
  get linkedCount(): number {
    return this.abortCallbacks.size;
  }

  /**
   * Calls `callback` once, with the abort reason, when this deadline aborts (not if it is
   * disposed first). Returns the unsubscribe. Runs after the signal's own listeners.
   */
  onAbort(callback: (reason: Error) => void): () => void {
    this.abortCallbacks.add(callback);
    return () => this.abortCallbacks.delete(callback);
  }

  /**
   * Settles with `work`, or rejects with this deadline's reason as soon as it aborts; a late
   * rejection of the abandoned work is swallowed. The abort callback is removed either way.
   */
  race<T>(work: Promise<T>): Promise<T> {
    return raceAbort(this, work);
  }

  /** The caller gives up: aborts the signal with a CancelledError (no-op when already aborted). */
  cancel(reason = 'caller gave up'): void {
    if (this.abortReason === undefined) this.abort(new CancelledError(this.step, reason));
  }

  /**
   * Ends the budget now, as if it had run out: aborts with a DeadlineExceededError, so children
   * and their calls treat it as an expiry (a read may drain its dependency's 504 within its
   * cancel grace), not as a cancellation. For an answer written at the deadline, a few ms early
   * by design (see answerBy). No-op when already aborted.
   */
  expireNow(message?: string): void {
    if (this.abortReason === undefined) this.abort(new DeadlineExceededError(this.step, this.budgetMs, message === undefined ? {} : { message }));
  }

  /** Throws the abort reason if the deadline expired or was cancelled. */
  throwIfAborted(): void {
    if (this.abortReason !== undefined) throw this.abortReason;
  }

  /** Unlinks from the parent and clears the timer without aborting. Idempotent. */
  dispose(): void {
    this.unlink();
  }

  private readonly onParentDeadlineAbort = (reason: Error): void => {
    this.unlinkParentDeadline = undefined; // the parent clears its callbacks as it aborts
    this.abort(this.fromParent(reason));
  };

  private readonly onParentAbort = (): void => {
    const parent = this.parent;
    this.parent = undefined; // the once-listener is already gone
    this.abort(this.fromParent(parent?.reason));
  };

  private exceeded(): DeadlineExceededError {
    return expiredReason(this.step, this.budgetMs);
  }

  private fromParent(reason: unknown): Error {
    return reasonFromParent(this.step, this.budgetMs, reason);
  }

  private abort(reason: Error): void {
    if (this.abortReason !== undefined) return;
    this.abortReason = reason;
    this.unlink();
    this.controller?.abort(reason);
    const callbacks = [...this.abortCallbacks];
    this.abortCallbacks.clear();
    for (const callback of callbacks) callback(reason);
  }

  private unlink(): void {
    if (this.expiry !== undefined) {
      this.expiry.clear();
      this.expiry = undefined;
    }
    if (this.parent !== undefined) {
      this.parent.removeEventListener('abort', this.onParentAbort);
      this.parent = undefined;
    }
    if (this.unlinkParentDeadline !== undefined) {
      this.unlinkParentDeadline();
      this.unlinkParentDeadline = undefined;
    }
  }
}

/** Factory form of `new Deadline(options)`. */
export function createDeadline(options: DeadlineOptions): Deadline {
  return new Deadline(options);
}
