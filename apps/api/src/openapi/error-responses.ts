import { ERROR_CATALOG, type ErrorCode } from '@notify/core';
import type { Operation } from './operation';

type JsonObject = Record<string, unknown>;

/** An operation's catalog errors grouped by HTTP status, in the order the operation lists them (401 first where a key is needed). */
function errorsByStatus(op: Operation): Map<number, ErrorCode[]> {
  const codes: ErrorCode[] = [...(op.auth === 'none' ? [] : ['UNAUTHORIZED' as const]), ...(op.errors ?? [])];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CATALOG[code].httpStatus;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

/** `VALIDATION_FAILED`, `MALFORMED_JSON` → `ValidationFailedOrMalformedJson`. */
function responseName(codes: readonly ErrorCode[]): string {
  const pascal = (code: string) => code.toLowerCase().replace(/(^|_)(.)/g, (_m, _s: string, c: string) => c.toUpperCase());
  return codes.map(pascal).join('Or');
}

function errorResponse(codes: readonly ErrorCode[]): JsonObject {
  return {
    description: codes.map((code) => `${code}: ${ERROR_CATALOG[code].summary}`).join('\n\n'),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

/** The operation's catalog errors, each status a `$ref` to the named response of its codes. */
export function errorResponseRefs(op: Operation): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const [status, codes] of errorsByStatus(op)) out[String(status)] = { $ref: `#/components/responses/${responseName(codes)}` };
  return out;
}

/**
 * `components.responses`: one catalog error answer per set of codes that shares a status in
 * some operation (`Unauthorized`, `ValidationFailedOrMalformedJson`, ...), described by the
 * codes' catalog summaries.
 */
export function errorResponseComponents(operations: readonly Operation[]): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const op of operations) for (const codes of errorsByStatus(op).values()) out[responseName(codes)] ??= errorResponse(codes);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}
