import type { CookieOptions, Request } from 'express';

/** The opaque session id: HttpOnly, never readable by a script. */
export const SESSION_COOKIE = 'notify_admin_session';
/**
 * The session's CSRF token, readable by the page's script on purpose: bull-board's HTTP client
 * (axios) copies a cookie of this name into an `X-XSRF-TOKEN` header on same-origin requests,
 * which is the double submit the server checks.
 */
export const CSRF_COOKIE = 'XSRF-TOKEN';
/** The sign-in form's own token (double submit before any session exists). */
export const LOGIN_COOKIE = 'notify_admin_login';
export const COOKIE_PATH = '/admin';

export type SecureCookieMode = 'auto' | 'always' | 'never';

/** The value of cookie `name` from the Cookie header (the first one of that name). */
export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const value = part.slice(at + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * SameSite=Strict (never sent on a cross-site request), scoped to /admin. Secure: always, never,
 * or `auto` = when this request came over https (directly or through a proxy that says so; a
 * client lying about it only makes its own cookie stricter).
 */
export function cookieOptions(req: Request, mode: SecureCookieMode, extra: { httpOnly: boolean; maxAgeMs?: number }): CookieOptions {
  const https = req.secure || req.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
  return {
    path: COOKIE_PATH,
    sameSite: 'strict',
    secure: mode === 'always' || (mode === 'auto' && https),
    httpOnly: extra.httpOnly,
    ...(extra.maxAgeMs !== undefined ? { maxAge: extra.maxAgeMs } : {}),
  };
}
