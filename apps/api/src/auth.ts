import * as crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { NotifyError } from '@notify/core';

/** Node >= 20.12 hashes in one call (no Hash object, on every request); engines allow 20.10, which falls back. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash;
const digest = (text: string): Buffer => (oneShot ? oneShot('sha256', text, 'buffer') : crypto.createHash('sha256').update(text).digest());

/**
 * Bearer API keys → tenant. Keys are compared as SHA-256 digests with timingSafeEqual, against
 * every configured key (no early exit), so timing reveals neither a key nor how much matched.
 */
export function createKeyring(keys: readonly { key: string; tenant: string }[]) {
  const entries = keys.map(({ key, tenant }) => ({ digest: digest(key), tenant }));
  return (presented: string): string | undefined => {
    const candidate = digest(presented);
    let tenant: string | undefined;
    for (const entry of entries) if (crypto.timingSafeEqual(entry.digest, candidate)) tenant = entry.tenant;
    return tenant;
  };
}

function bearer(req: Request): string | undefined {
  const header = req.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

/** Resolves the tenant into `res.locals.tenant`, or answers 401. */
export function requireTenant(lookup: (key: string) => string | undefined) {
  return (req: Request, res: Response, next: NextFunction) => {
    const key = bearer(req);
    const tenant = key === undefined ? undefined : lookup(key);
    if (!tenant) {
      next(new NotifyError('UNAUTHORIZED', key === undefined ? 'missing Authorization: Bearer <api key>' : 'unknown API key'));
      return;
    }
    res.locals.tenant = tenant;
    next();
  };
}

/** Admin endpoints (bull-board): the admin key only. */
export function requireAdmin(adminKey: string) {
  const check = createKeyring([{ key: adminKey, tenant: 'admin' }]);
  return (req: Request, _res: Response, next: NextFunction) => {
    const key = bearer(req);
    if (key === undefined) next(new NotifyError('UNAUTHORIZED', 'missing Authorization: Bearer <admin key>'));
    else if (!check(key)) next(new NotifyError('FORBIDDEN', 'this endpoint needs the admin API key'));
    else next();
  };
}
