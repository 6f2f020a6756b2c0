import { InvalidDeadlineHeaderError } from './errors';

/**
 * Wire format of the propagated deadline.
 *
 * `x-request-timeout-ms: 173` — the sender's remaining budget in whole milliseconds
 * (1 to 9 ASCII digits, rounded down). Relative, never an absolute timestamp: two hosts'
 * clocks disagree, but both agree on what "173 ms from now" means up to the transit time,
 * which the receiver subtracts as a configured allowance.
 *
 * `grpc-timeout: 173m` — also accepted (gRPC over HTTP/2's form): 1 to 8 digits followed by
 * a unit, H hours, M minutes, S seconds, m milliseconds, u microseconds, n nanoseconds.
 * When both arrive, the smaller one wins (the stricter caller is the one that gives up).
 */
export const DEADLINE_HEADER = 'x-request-timeout-ms';
export const GRPC_TIMEOUT_HEADER = 'grpc-timeout';

const MS_VALUE = /^[0-9]{1,9}$/;
const GRPC_VALUE = /^([0-9]{1,8})([HMSmun])$/;
const GRPC_UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 1e-3, n: 1e-6 };

/** The header value for a remaining budget: whole ms, rounded down, never negative. */
export function formatDeadlineHeader(remainingMs: number): string {
  if (Number.isNaN(remainingMs)) throw new RangeError('remainingMs must be a number');
  return String(Math.min(999_999_999, Math.max(0, Math.floor(remainingMs))));
}

/** Parses an `x-request-timeout-ms` value; throws InvalidDeadlineHeaderError. */
export function parseTimeoutMs(value: string): number {
  const trimmed = value.trim();
  if (MS_VALUE.test(trimmed)) return Number(trimmed);
  const reason = /^-\s*[0-9]/.test(trimmed)
    ? `must not be negative (got "${value}")`
    : `expected whole milliseconds, 1 to 9 digits, e.g. "173" (got "${value}")`;
  throw new InvalidDeadlineHeaderError(DEADLINE_HEADER, reason);
}

/** Parses a `grpc-timeout` value into ms; throws InvalidDeadlineHeaderError. */
export function parseGrpcTimeout(value: string): number {
  const match = GRPC_VALUE.exec(value.trim());
  if (match === null) {
    const reason = /^-/.test(value.trim())
      ? `must not be negative (got "${value}")`
      : `expected 1 to 8 digits and a unit H, M, S, m, u or n, e.g. "173m" (got "${value}")`;
    throw new InvalidDeadlineHeaderError(GRPC_TIMEOUT_HEADER, reason);
  }
  return Number(match[1]) * (GRPC_UNIT_MS[match[2] as string] as number);
}

/** Node's incoming header shape: repeated headers may arrive as arrays. */
export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

function single(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (value.length === 1) return value[0];
  throw new InvalidDeadlineHeaderError(name, `sent ${value.length} times; send it once`);
}

/**
 * The propagated remaining budget in ms, or undefined when the caller sent none.
 * Header names must be lower-case (as Node delivers them).
 */
export function readPropagatedTimeout(headers: HeaderBag): number | undefined {
  const ms = single(headers, DEADLINE_HEADER);
  const grpc = single(headers, GRPC_TIMEOUT_HEADER);
  const values: number[] = [];
  if (ms !== undefined) values.push(parseTimeoutMs(ms));
  if (grpc !== undefined) values.push(parseGrpcTimeout(grpc));
  return values.length === 0 ? undefined : Math.min(...values);
}

/** The outgoing header for a deadline's remaining time. */
export function deadlineHeaders(remainingMs: number): Record<string, string> {
  return Number.isFinite(remainingMs) ? { [DEADLINE_HEADER]: formatDeadlineHeader(remainingMs) } : {};
}
