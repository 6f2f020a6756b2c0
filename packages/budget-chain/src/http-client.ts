import { BudgetedGet, type BudgetedGetOptions } from './budgeted-get';
import { DependencyFailedError } from './errors';
import { DEADLINE_HEADER, formatDeadlineHeader } from './header';

/**
 * GET a JSON document within a deadline, propagating the remaining time as
 * `x-request-timeout-ms`. Resolves with the parsed body on 2xx; rejects with the deadline's
 * own reason (DeadlineExceededError / CancelledError) when it aborts, a DeadlineExceededError
 * when the dependency reports it ran out of the propagated time (504 DEADLINE_EXCEEDED), and
 * a DependencyFailedError for any other status or a network failure.
 *
 * A call that is still queued for a socket when its caller gives up is never sent (with
 * `cancel`): it is dropped from the queue and the pool's sockets stay as they are.
 */
export function budgetedGetJson(url: string, options: BudgetedGetOptions): Promise<unknown> {
  const { deadline } = options;
  const aborted = deadline.reason;
  if (aborted !== undefined) return Promise.reject(aborted);
  const step = options.step ?? deadline.step;
  const target = URL_PARTS.exec(url);
  if (target === null) return Promise.reject(new DependencyFailedError(step, `${step} has no http(s) URL: ${url}`));
  const origin = target[1] as string;
  const path = target[2] === '' ? '/' : (target[2] as string);
  return new Promise((resolve, reject) => {
    const call = new BudgetedGet(step, origin, options, resolve, reject);
    call.start(path, requestHeaders(deadline.remainingMs(), options.headers));
  });
}

/** `http(s)://host[:port]` and the rest (path and query). */
const URL_PARTS = /^(https?:\/\/[^/?#]+)([^#]*)/i;

/** Flat [name, value, ...] (undici's cheapest form): the caller's headers, then the deadline's and `accept`, which win. */
function requestHeaders(remainingMs: number, extra: Readonly<Record<string, string>> | undefined): string[] {
  const headers: string[] = [];
  const finite = Number.isFinite(remainingMs);
  if (extra !== undefined) {
    for (const name of Object.keys(extra)) {
      const lower = name.toLowerCase();
      if (lower === 'accept' || (finite && lower === DEADLINE_HEADER)) continue;
      headers.push(name, extra[name] as string);
    }
  }
  if (finite) headers.push(DEADLINE_HEADER, formatDeadlineHeader(remainingMs));
  headers.push('accept', 'application/json');
  return headers;
}
