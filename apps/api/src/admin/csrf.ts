import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';

export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Constant-time equality of two tokens (compared as SHA-256 digests, so lengths may differ). */
export function sameToken(presented: string | undefined, expected: string): boolean {
  if (presented === undefined || presented === '') return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * Whether a state-changing request comes from this site's own pages. Browsers send
 * `Sec-Fetch-Site` and `Origin` on POST/PUT/DELETE; a request without either (curl, a script)
 * is left to the token check. Compared by host only: behind a TLS-terminating proxy the api sees
 * http while the page's origin is https.
 */
export function fromSameSite(req: Request): boolean {
  const site = req.get('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.get('origin') ?? req.get('referer');
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.get('host');
  } catch {
    return false; // `Origin: null` (sandboxed frame, privacy redirect) and garbage alike
  }
}
