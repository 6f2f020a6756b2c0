import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Queue } from 'bullmq';
import type { RedisClient } from '@notify/runtime';
import { NotifyError } from '@notify/core';
import { createKeyring, requireAdmin } from '../auth';
import { documentedErrorShape } from '../error-middleware';
import { createBullBoardRouter } from './bull-board';
import { CSRF_COOKIE, LOGIN_COOKIE, SESSION_COOKIE, cookieOptions, readCookie, type SecureCookieMode } from './cookies';
import { SAFE_METHODS, fromSameSite, sameToken } from './csrf';
import { createLoginLimiter, type LoginLimiter } from './login-limiter';
import { createNotificationConsole, type NotificationConsoleOptions } from './notification-console';
import { refusalPage, signInPage, signOutPage } from './pages';
import { createAdminSessionStore, newToken, type AdminSession } from './session-store';

export interface AdminConsoleOptions {
  queues: Queue[];
  /** Where sessions live (the api's fail-fast producer connection). */
  redis: RedisClient;
  adminApiKey: string;
  session: {
    ttlSeconds: number;
    /** `auto`: Secure when the request came over https. */
    secureCookie: SecureCookieMode;
  };
  /** @defaultValue 5 failed sign-ins per client address, and per key prefix, per 15 minutes */
  limiter?: LoginLimiter;
  /**
   * The proxies whose X-Forwarded-For names the client (express `trust proxy` semantics:
   * addresses, CIDR ranges or loopback / linklocal / uniquelocal; ADMIN_TRUSTED_PROXIES).
   * Default none: the direct peer is the client.
   */
  trustedProxies?: readonly string[];
  /** The notification search and timeline at `/admin/notifications` (absent: not served). */
  notifications?: Omit<NotificationConsoleOptions, 'redis' | 'queues'>;
}

/**
 * The client's address as express's `req.ip` computes it under this console's own `trust proxy`
 * (the api's may differ): the direct peer, or what the trusted proxies put in X-Forwarded-For.
 */
function clientAddress(trustedProxies: readonly string[]): (req: Request) => string {
  const settings = express();
  settings.set('trust proxy', trustedProxies.length > 0 ? [...trustedProxies] : false);
  return (req) => {
    // express's own `ip` getter, read through a view of the request whose app is `settings`.
    const view = Object.create(req, { app: { value: settings } }) as Request;
    return `ip:${view.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
  };
}

/** The part of a presented key its own throttle counts: enough to tell guesses apart, never the key. */
const KEY_PREFIX_LENGTH = 6;

/**
 * The board's page may load only its own scripts and talk only to this api: an injected script
 * could not send the session's data elsewhere, and the page asks no third party (bull-board
 * links Google Fonts; the system font is used instead).
 */
const BOARD_CSP =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";
const boardPolicy: RequestHandler = (_req, res, next) => {
  res.set('content-security-policy', BOARD_CSP);
  next();
};

/** How long a sign-in form stays valid (its double-submit cookie). */
const FORM_TTL_MS = 10 * 60_000;

const asyncHandler =
  (handler: (req: Request, res: Response, next: NextFunction) => Promise<void>): RequestHandler =>
  (req, res, next) => {
    handler(req, res, next).catch(next);
  };
const field = (body: unknown, name: string): string | undefined => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * The operator console, mounted at `/admin`: bull-board at `/admin/queues` and a browser
 * sign-in for it.
 * - Scripts keep sending `Authorization: Bearer <admin key>` (a request that carries the header
 *   is judged by it alone: 401 / 403 as before).
 * - A browser signs in at `/admin/login` with the admin key (compared in constant time; a tenant
 *   key is refused like any other wrong key; failures are throttled per client address). It
 *   gets an opaque session id in an HttpOnly, SameSite=Strict cookie; the session lives in Redis
 *   with a fixed lifetime.
 * - Anything that changes state with a session (bull-board's POST/PUT/DELETE, sign-out) must
 *   come from this site (Sec-Fetch-Site / Origin) and carry the session's CSRF token: in the
 *   `X-XSRF-TOKEN` header, which bull-board's client copies from the `XSRF-TOKEN` cookie, or in
 *   the sign-out form.
 */
export function createAdminConsole(options: AdminConsoleOptions): Router {
  const sessions = createAdminSessionStore(options.redis, options.session.ttlSeconds);
  const limiter = options.limiter ?? createLoginLimiter();
  const isAdminKey = createKeyring([{ key: options.adminApiKey, tenant: 'admin' }]);
  const bearer = requireAdmin(options.adminApiKey);
  const clientOf = clientAddress(options.trustedProxies ?? []);
  const prefixOf = (key: string) => `key:${key.slice(0, KEY_PREFIX_LENGTH)}`;
  /** Milliseconds until an attempt from this client with this key may be checked (either throttle). */
  const waitFor = (client: string, key: string | undefined) =>
    Math.max(limiter.retryAfterMs(client), key === undefined ? 0 : limiter.retryAfterMs(prefixOf(key)));
  const failed = (client: string, key: string | undefined) => {
    limiter.fail(client);
    if (key !== undefined) limiter.fail(prefixOf(key));
  };
  const form = express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 4 });
  const sessionMs = options.session.ttlSeconds * 1000;
  const cookie = (req: Request, httpOnly: boolean, maxAgeMs?: number) =>
    cookieOptions(req, options.session.secureCookie, { httpOnly, ...(maxAgeMs !== undefined ? { maxAgeMs } : {}) });
  const sessionOf = async (req: Request): Promise<AdminSession | undefined> => {
    const id = readCookie(req, SESSION_COOKIE);
    return id === undefined ? undefined : sessions.find(id);
  };
  const showSignIn = (req: Request, res: Response, status?: number, message?: string) => {
    const csrf = newToken();
    res.cookie(LOGIN_COOKIE, csrf, cookie(req, true, FORM_TTL_MS));
    signInPage(res, { csrf, ...(status !== undefined ? { status } : {}), ...(message !== undefined ? { message } : {}) });
  };
  const clearCookies = (req: Request, res: Response) => {
    for (const name of [SESSION_COOKIE, CSRF_COOKIE, LOGIN_COOKIE]) res.clearCookie(name, cookie(req, name !== CSRF_COOKIE));
  };

  const router = Router();
  router.use((_req, res, next) => {
    res.set('x-frame-options', 'DENY'); // the board's buttons must not be clickable through a frame
    next();
  });

  router.get(
    '/login',
    asyncHandler(async (req, res) => {
      if (await sessionOf(req)) res.redirect(303, '/admin/queues');
      else showSignIn(req, res);
    }),
  );

  router.post(
    '/login',
    form,
    asyncHandler(async (req, res) => {
      const client = clientOf(req);
      const key = field(req.body, 'key');
      const waitMs = waitFor(client, key);
      if (waitMs > 0) {
        res.set('retry-after', String(Math.ceil(waitMs / 1000)));
        showSignIn(req, res, 429, `Too many failed sign-ins from this address: try again in ${Math.ceil(waitMs / 60_000)} min.`);
        return;
      }
      if (!fromSameSite(req) || !sameToken(field(req.body, 'csrf'), readCookie(req, LOGIN_COOKIE) ?? '')) {
        showSignIn(req, res, 403, 'This form expired or was sent from another site: sign in again.');
        return;
      }
      if (key === undefined || !isAdminKey(key)) {
        failed(client, key);
        showSignIn(req, res, 401, 'That is not the admin key.');
        return;
      }
      limiter.succeed(client);
      // A fresh id at every sign-in: a session id planted before sign-in is never promoted.
      const previous = readCookie(req, SESSION_COOKIE);
      if (previous !== undefined) await sessions.destroy(previous);
      const session = await sessions.create();
      res.clearCookie(LOGIN_COOKIE, cookie(req, true));
      res.cookie(SESSION_COOKIE, session.id, cookie(req, true, sessionMs));
      res.cookie(CSRF_COOKIE, session.csrf, cookie(req, false, sessionMs));
      res.redirect(303, '/admin/queues');
    }),
  );

  router.get(
    '/logout',
    asyncHandler(async (req, res) => {
      const session = await sessionOf(req);
      if (session) signOutPage(res, session.csrf);
      else res.redirect(303, '/admin/login');
    }),
  );

  router.post(
    '/logout',
    form,
    asyncHandler(async (req, res) => {
      const session = await sessionOf(req);
      if (session) {
        const token = field(req.body, 'csrf') ?? req.get('x-xsrf-token');
        if (!fromSameSite(req) || !sameToken(token, session.csrf)) {
          refusalPage(res, 403, "Sign-out refused: it did not come from this site's sign-out page.");
          return;
        }
        await sessions.destroy(session.id);
      }
      clearCookies(req, res);
      res.redirect(303, '/admin/login');
    }),
  );

  const authorize = asyncHandler(async (req, res, next) => {
    if (req.get('authorization') !== undefined) {
      // Scripts' keys are throttled as the form's are: per client address and per key prefix.
      const client = clientOf(req);
      const key = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1];
      const waitMs = waitFor(client, key);
      if (waitMs > 0) {
        res.set('retry-after', String(Math.ceil(waitMs / 1000)));
        next(new NotifyError('TOO_MANY_ATTEMPTS', `too many wrong admin keys: retry in ${Math.ceil(waitMs / 1000)} s`));
        return;
      }
      bearer(req, res, (error?: unknown) => {
        if (error !== undefined) failed(client, key);
        else limiter.succeed(client);
        next(error);
      });
      return;
    }
    const session = await sessionOf(req);
    if (!session) {
      // A person opening the page is sent to the form; a script gets the documented 401.
      if (SAFE_METHODS.has(req.method) && (req.get('accept') ?? '').includes('text/html')) res.redirect(303, '/admin/login');
      else next(new NotifyError('UNAUTHORIZED', 'sign in at /admin/login, or send Authorization: Bearer <admin key>'));
      return;
    }
    if (!SAFE_METHODS.has(req.method) && (!fromSameSite(req) || !sameToken(req.get('x-xsrf-token'), session.csrf))) {
      next(new NotifyError('FORBIDDEN', "a state-changing request needs this site's X-XSRF-TOKEN header"));
      return;
    }
    next();
  });
  router.use(
    '/queues',
    authorize,
    boardPolicy,
    documentedErrorShape(),
    createBullBoardRouter(options.queues, '/admin/queues', { signOutUrl: '/admin/logout' }),
  );
  if (options.notifications) {
    const notifications = createNotificationConsole({ ...options.notifications, redis: options.redis, queues: options.queues });
    router.use('/notifications', authorize, notifications);
  }
  return router;
}
