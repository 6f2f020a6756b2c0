import { z } from 'zod';
import { parseUnsubscribeSecrets, type UnsubscribeSecret } from '@notify/core';
import { DEV_DEFAULTS, devOrigin } from './dev-defaults';

/** The secret development signs unsubscribe links with when UNSUBSCRIBE_SECRETS is unset (never in production). */
export const DEV_UNSUBSCRIBE_SECRET: UnsubscribeSecret = { id: 'dev', secret: 'development-unsubscribe-secret' };

/** Categories, opt-outs and one-click unsubscribe (docs/preferences.md): read by the api and the worker alike. */
export const consentEnvShape = {
  CONSENT_CACHE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(300_000)
    .default(5_000)
    .describe("How long a process trusts its copy of a tenant's categories and opt-out mark; a change made through another process applies within it."),
  PUBLIC_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default(devOrigin(DEV_DEFAULTS.apiPort))
    .describe('Where recipients reach the api: the one-click unsubscribe links (`<base>/u/<token>`) start with it. Mailbox providers expect https.'),
  UNSUBSCRIBE_SECRETS: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return undefined;
      try {
        return parseUnsubscribeSecrets(raw);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    })
    .describe(
      '`id:secret,id:secret`: HMAC secrets of the unsubscribe links (16+ characters each). The first signs, all verify: put a new one first and drop the old one once its links expired. Unset: a development secret; in production, no unsubscribe link at all (set it there).',
    ),
  UNSUBSCRIBE_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(3_600)
    .max(400 * 86_400)
    .default(60 * 86_400)
    .describe('How long an unsubscribe link in an e-mail keeps working (RFC 8058 asks for a link that works long after the mail).'),
};

export interface ConsentConfig {
  cacheMs: number;
  publicBaseUrl: string;
  /** Empty: no unsubscribe links (production without UNSUBSCRIBE_SECRETS). */
  unsubscribeSecrets: UnsubscribeSecret[];
  tokenTtlSeconds: number;
}

export function toConsentConfig(c: { [K in keyof typeof consentEnvShape]: z.output<(typeof consentEnvShape)[K]> }, production: boolean): ConsentConfig {
  return {
    cacheMs: c.CONSENT_CACHE_MS,
    publicBaseUrl: c.PUBLIC_BASE_URL.replace(/\/+$/, ''),
    unsubscribeSecrets: c.UNSUBSCRIBE_SECRETS ?? (production ? [] : [DEV_UNSUBSCRIBE_SECRET]),
    tokenTtlSeconds: c.UNSUBSCRIBE_TOKEN_TTL_SECONDS,
  };
}
