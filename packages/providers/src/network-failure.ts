import { errors as undiciErrors } from 'undici';
import { classifyNetworkError } from '@notify/core';
import type { SendResult } from './adapter';

/**
 * Error codes raised while connecting, before a byte of the request was written: the call
 * provably never reached the provider (no delivery possible, no budget spent).
 */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The code of a network error (its own, its cause's, or its name). */
export function networkErrorCode(error: unknown): string {
  const err = (error ?? {}) as { code?: unknown; name?: unknown; cause?: { code?: unknown } };
  if (typeof err.code === 'string') return err.code;
  if (typeof err.cause?.code === 'string') return err.cause.code;
  return typeof err.name === 'string' ? err.name : 'error';
}

/**
 * A failed HTTP call made with undici (the simulators' client, HTTP SMS): a timeout after the
 * request went out is unknown (the provider may have delivered it); an error raised while
 * connecting is transient and not sent; a reset or closed socket after that may follow a
 * written request, which is not provable, so it counts as sent.
 * The message names the error class only: undici's own messages can carry the URL.
 */
export function classifyHttpFailure(error: unknown, timedOut: boolean, durationMs: number): SendResult {
  if (timedOut || error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return { outcome: 'unknown', errorClass: 'timeout', message: 'no answer within the call timeout', durationMs, sent: true };
  }
  const code = networkErrorCode(error);
  const notSent = NOT_SENT_CODES.has(code);
  const outcome = classifyNetworkError({ code }, !notSent);
  const message = notSent ? `could not connect to the provider (${code})` : `the connection failed after the request was written (${code})`;
  return { outcome, errorClass: code, message, durationMs, sent: !notSent };
}

const EMAIL = /[^\s<>"'(),;:/*]+@[^\s<>"'(),;:/]+/g;
const PHONE = /\+?\d[\d\s().-]{6,}\d/g;
const CREDENTIALS = /([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi;

/**
 * A provider's text made safe for a SendResult, a log line or an error: credentials in URLs,
 * e-mail addresses and phone numbers removed, shortened. Providers echo the recipient in their
 * answers ("550 5.1.1 <ayse@example.com>: Recipient address rejected").
 */
export function scrubProviderText(text: string, maxLength = 200): string {
  const cleaned = text
    .replace(CREDENTIALS, '$1***@')
    .replace(EMAIL, '<address>')
    .replace(PHONE, (match) => (match.replace(/\D/g, '').length >= 7 ? '<number>' : match))
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.length > maxLength ? `${cleaned.slice(0, maxLength - 1)}…` : cleaned;
}

/** A JSON object answer, or undefined (not JSON, or not an object). */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
