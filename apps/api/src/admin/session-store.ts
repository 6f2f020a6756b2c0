import { createHash, randomBytes } from 'node:crypto';
import type { RedisClient } from '@notify/runtime';
import { NotifyError, adminSessionKey } from '@notify/core';

/** A signed-in browser: the opaque id its cookie carries and the CSRF token bound to it. */
export interface AdminSession {
  id: string;
  csrf: string;
}

export interface AdminSessionStore {
  create(): Promise<AdminSession>;
  /** The live session of this cookie value, or undefined (unknown, expired or malformed). */
  find(id: string): Promise<AdminSession | undefined>;
  destroy(id: string): Promise<void>;
}

/** 32 random bytes, base64url: the session id and the CSRF token alike. */
export const newToken = () => randomBytes(32).toString('base64url');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Sessions in Redis with a fixed lifetime (no sliding renewal: a stolen cookie dies on time),
 * shared by every api replica and surviving a restart. Only a hash of the id is stored.
 */
export function createAdminSessionStore(redis: RedisClient, ttlSeconds: number): AdminSessionStore {
  const key = (id: string) => adminSessionKey(createHash('sha256').update(id).digest('hex'));
  const unavailable = (cause: unknown) => new NotifyError('DEPENDENCY_UNAVAILABLE', 'the session store (Redis) did not answer', { cause });
  return {
    async create() {
      const session = { id: newToken(), csrf: newToken() };
      await redis.set(key(session.id), session.csrf, 'EX', ttlSeconds).catch((error: unknown) => {
        throw unavailable(error);
      });
      return session;
    },
    async find(id) {
      if (!TOKEN.test(id)) return undefined;
      const csrf = await redis.get(key(id)).catch((error: unknown) => {
        throw unavailable(error);
      });
      return csrf === null ? undefined : { id, csrf };
    },
    async destroy(id) {
      if (TOKEN.test(id))
        await redis.del(key(id)).catch((error: unknown) => {
          throw unavailable(error);
        });
    },
  };
}
