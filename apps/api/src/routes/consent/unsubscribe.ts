import { Router, type Request } from 'express';
import { NotifyError, verifyUnsubscribeToken, type UnsubscribeClaims, type UnsubscribeSecret } from '@notify/core';
import type { OptOutStore } from '@notify/pipeline';
import { createLoginLimiter, type LoginLimiter } from '../../admin/login-limiter';
import type { OptOutListener } from './preferences';

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

const page = (body: string) =>
  `<!doctype html>\n<html><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Unsubscribe</title>` +
  `<style>body{font:16px system-ui,sans-serif;margin:3em auto;max-width:32em}button{font:inherit;padding:.4em 1.2em}</style></head>\n<body>${body}</body></html>\n`;

/**
 * The one-click unsubscribe links of e-mails (RFC 8058), public, without a key:
 *   POST /u/:token  records the opt-out (idempotent) and answers 200: what a mailbox provider calls;
 *   GET  /u/:token  a one-line page whose button POSTs: a link scanner's GET changes nothing.
 * Every bad token (tampered, expired, signed by a secret no longer listed) gets the same 400,
 * before any lookup, so an answer says nothing about which recipients exist; a client that
 * keeps sending bad ones is refused for a while (429).
 */
export function unsubscribeRouter(deps: {
  optOuts: OptOutStore;
  secrets: readonly UnsubscribeSecret[];
  onChange?: OptOutListener;
  limiter?: LoginLimiter;
  now?: () => number;
}): Router {
  const router = Router();
  const limiter = deps.limiter ?? createLoginLimiter({ maxFailures: 20, windowMs: 60_000 });
  const now = deps.now ?? Date.now;

  const claimsOf = (req: Request): UnsubscribeClaims => {
    const client = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const waitMs = limiter.retryAfterMs(client);
    if (waitMs > 0) throw new NotifyError('TOO_MANY_ATTEMPTS', `too many invalid unsubscribe links: retry in ${Math.ceil(waitMs / 1000)} s`);
    const claims = verifyUnsubscribeToken(String(req.params.token), deps.secrets, Math.floor(now() / 1000));
    if (!claims) {
      limiter.fail(client);
      throw new NotifyError('UNSUBSCRIBE_LINK_INVALID', 'this unsubscribe link is invalid or has expired');
    }
    return claims;
  };

  router.get('/:token', (req, res) => {
    claimsOf(req);
    res.status(200).set(PAGE_HEADERS).send(page(`<form method="post"><p>Stop receiving these e-mails? <button type="submit">Unsubscribe</button></p></form>`));
  });

  router.post('/:token', async (req, res) => {
    const claims = claimsOf(req);
    const recorded = await deps.optOuts.optOut(claims.tenant, claims.rh, claims.category, claims.channel);
    if (recorded) await deps.onChange?.(claims.tenant, { rh: claims.rh }, { category: claims.category, channel: claims.channel, optedOut: true }, 'one-click');
    res.status(200).set(PAGE_HEADERS).send(page('<p>You are unsubscribed: these e-mails will stop.</p>'));
  });

  return router;
}
