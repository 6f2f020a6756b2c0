import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { PRIORITIES } from '@notify/core';
import { connectionsSchema, timeoutMsSchema, providerEntryFields } from '../config-fields';

/** The OAuth2 scope of FCM HTTP v1 sends. */
export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
export const FCM_API_BASE_URL = 'https://fcm.googleapis.com';
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** https, or http on loopback only (a test peer): a bearer token or a signed assertion never crosses a network in clear. */
const endpointUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).refine((value) => {
  const url = new URL(value);
  return url.protocol === 'https:' || LOOPBACK_HOSTS.has(url.hostname);
}, 'must be https (http only on loopback)');

/** The fields of a Google service-account key file the adapter uses. */
const serviceAccountFields = z.object({
  project_id: z.string().regex(/^[a-z][a-z0-9-]{4,61}[a-z0-9]$/, 'must be a Firebase project id'),
  client_email: z.email('must be the service account e-mail'),
  private_key: z.string().min(1, 'must be the PEM private key'),
  private_key_id: z.string().optional(),
  token_uri: endpointUrl.default(GOOGLE_TOKEN_URL),
});
export type ServiceAccount = z.infer<typeof serviceAccountFields>;

/**
 * Reads a service-account key: the JSON itself (it starts with `{`, e.g. from an env variable)
 * or the path of the JSON file Google's console downloads. Throws an Error whose message names
 * what is wrong and never quotes the input (it holds the private key).
 */
export function loadServiceAccount(value: string): ServiceAccount {
  let text = value.trim();
  if (!text.startsWith('{')) {
    try {
      text = readFileSync(text, 'utf8');
    } catch (error) {
      throw new Error(`cannot read the service-account file (${(error as { code?: string }).code ?? 'error'})`);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text around the error: never passed on.
    throw new Error('the service account is not valid JSON');
  }
  const parsed = serviceAccountFields.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`the service account is incomplete (${fields.join('; ')})`);
  }
  try {
    const key = createPrivateKey(parsed.data.private_key);
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not rsa');
  } catch {
    throw new Error('the service account private_key is not an RSA private key in PEM');
  }
  return parsed.data;
}

const deliverySchema = z.strictObject({
  /** android.priority: HIGH wakes a dozing device at once; NORMAL may wait for a maintenance window. */
  androidPriority: z.enum(['HIGH', 'NORMAL']),
  /** apns-priority: 10 sends at once, 5 as the device's power allows. */
  apnsPriority: z.enum(['10', '5']),
  /** How long FCM keeps the message for an offline device (android.ttl, apns-expiration). */
  ttlSeconds: z.number().int().min(0).max(2_419_200),
});

/** Per priority: an urgent notification wakes the device and is stale after 15 minutes; a reminder may wait up to a day. */
export const DEFAULT_FCM_DELIVERY = {
  urgent: { androidPriority: 'HIGH', apnsPriority: '10', ttlSeconds: 900 },
  reminder: { androidPriority: 'NORMAL', apnsPriority: '5', ttlSeconds: 86_400 },
} as const satisfies Record<(typeof PRIORITIES)[number], z.infer<typeof deliverySchema>>;

/**
 * One FCM HTTP v1 provider. `serviceAccount` is the key JSON or the path of its file; it holds
 * the private key, so issues name the field and never echo the value.
 */
export const fcmProviderConfigSchema = z
  .strictObject({
    ...providerEntryFields('fcm', 'push'),
    serviceAccount: z.string().min(1, 'must be the service-account JSON or the path of its file'),
    /** FCM's API origin (tests: a loopback peer). */
    apiBaseUrl: endpointUrl.default(FCM_API_BASE_URL),
    /** The OAuth2 token endpoint; defaults to the service account's token_uri. */
    tokenUrl: endpointUrl.optional(),
    connections: connectionsSchema.default(16),
    timeouts: z
      .strictObject({
        /** TCP connect and TLS handshake: past it nothing was written (transient, not sent). */
        connectMs: timeoutMsSchema.default(2_000),
        /** messages:send; past it, after the request was written, the outcome is unknown. */
        requestMs: timeoutMsSchema.default(5_000),
        /** The token request; past it the send fails as transient, not sent (no message went out). */
        tokenMs: timeoutMsSchema.default(5_000),
      })
      .prefault({}),
    /** An access token is replaced this long before it expires. */
    tokenRefreshMarginSeconds: z.number().int().min(0).max(1_800).default(300),
    delivery: z
      .strictObject({ urgent: deliverySchema.default(DEFAULT_FCM_DELIVERY.urgent), reminder: deliverySchema.default(DEFAULT_FCM_DELIVERY.reminder) })
      .prefault({}),
  })
  .superRefine((config, ctx) => {
    try {
      loadServiceAccount(config.serviceAccount);
    } catch (error) {
      ctx.addIssue({ code: 'custom', path: ['serviceAccount'], message: (error as Error).message });
    }
    if (config.timeouts.connectMs >= config.timeouts.requestMs) {
      ctx.addIssue({ code: 'custom', path: ['timeouts', 'connectMs'], message: 'must be shorter than timeouts.requestMs' });
    }
  });

export type FcmProviderConfig = z.infer<typeof fcmProviderConfigSchema>;
export type FcmProviderConfigInput = z.input<typeof fcmProviderConfigSchema>;
