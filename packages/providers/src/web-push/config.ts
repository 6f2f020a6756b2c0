import { createECDH } from 'node:crypto';
import { z } from 'zod';
import { PRIORITIES } from '@notify/core';
import { connectionsSchema, timeoutMsSchema, providerEntryFields } from '../config-fields';

const base64urlBytes = (bytes: number, what: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `must be base64url (${what})`)
    .refine((value) => Buffer.from(value, 'base64url').length === bytes, `must decode to ${bytes} bytes (${what})`);

/** The VAPID public key the private key yields (uncompressed P-256 point, base64url), or undefined for a key that is no P-256 key. */
export function vapidPublicKeyOf(privateKey: string): string | undefined {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    return ecdh.getPublicKey().toString('base64url');
  } catch {
    return undefined;
  }
}

const URGENCIES = ['very-low', 'low', 'normal', 'high'] as const;
export type WebPushUrgency = (typeof URGENCIES)[number];

const deliverySchema = z.strictObject({
  /** RFC 8030 TTL: how long (seconds) the push service keeps the message for an offline device; 0 = deliver now or drop. */
  ttlSeconds: z.number().int().min(0).max(2_419_200),
  /** RFC 8030 Urgency: `high` wakes the device at once; `normal`/`low` let it wait for power or Wi-Fi. */
  urgency: z.enum(URGENCIES),
});

/**
 * TTL and Urgency per notification priority. An urgent notification (a one-time code, an
 * alarm) is worth little after a quarter of an hour and must wake the device: high, 900 s.
 * A reminder can wait for the device to come online within a day, at normal urgency.
 */
export const DEFAULT_WEB_PUSH_DELIVERY = {
  urgent: { ttlSeconds: 900, urgency: 'high' },
  reminder: { ttlSeconds: 86_400, urgency: 'normal' },
} as const satisfies Record<(typeof PRIORITIES)[number], z.infer<typeof deliverySchema>>;

/**
 * One Web Push provider (RFC 8030 push services reached at each subscription's endpoint, with
 * VAPID, RFC 8292, and aes128gcm payload encryption, RFC 8291). The VAPID private key is read
 * here and never echoed: issues name the field, never the value.
 */
export const webPushProviderConfigSchema = z
  .strictObject({
    ...providerEntryFields('web-push', 'push'),
    vapid: z.strictObject({
      /** Who runs the sender, for the push service's operators: `mailto:ops@example.com` or an https URL. */
      subject: z.string().regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, 'must be mailto:<address> or an https: URL'),
      /** The applicationServerKey the browsers subscribed with: an uncompressed P-256 point, base64url (87 characters). */
      publicKey: base64urlBytes(65, 'an uncompressed P-256 public key'),
      /** The matching private key, base64url (43 characters). A secret: give it from env in PROVIDERS_FILE. */
      privateKey: base64urlBytes(32, 'a P-256 private key'),
    }),
    /** Sockets kept open to each push service origin (FCM, Mozilla autopush, Apple...). */
    connections: connectionsSchema.default(16),
    timeouts: z
      .strictObject({
        /** TCP connect and TLS handshake: past it the request was never written (transient, not sent). */
        connectMs: timeoutMsSchema.default(2_000),
        /** The whole call; past it, after the request was written, the outcome is unknown. */
        requestMs: timeoutMsSchema.default(5_000),
      })
      .prefault({}),
    delivery: z
      .strictObject({ urgent: deliverySchema.default(DEFAULT_WEB_PUSH_DELIVERY.urgent), reminder: deliverySchema.default(DEFAULT_WEB_PUSH_DELIVERY.reminder) })
      .prefault({}),
    tls: z
      .strictObject({
        /** Extra trusted CA certificates (PEM), e.g. a private push service's; the system CAs stay trusted. */
        ca: z.string().optional(),
        /** Verify the push service's certificate (keep true in production). */
        rejectUnauthorized: z.boolean().default(true),
      })
      .prefault({}),
  })
  .superRefine((config, ctx) => {
    const derived = vapidPublicKeyOf(config.vapid.privateKey);
    if (derived === undefined) {
      ctx.addIssue({ code: 'custom', path: ['vapid', 'privateKey'], message: 'is not a P-256 private key' });
    } else if (derived !== Buffer.from(config.vapid.publicKey, 'base64url').toString('base64url')) {
      ctx.addIssue({
        code: 'custom',
        path: ['vapid', 'publicKey'],
        message: 'does not match vapid.privateKey (give the pair web-push generate-vapid-keys printed)',
      });
    }
    if (config.timeouts.connectMs >= config.timeouts.requestMs) {
      ctx.addIssue({ code: 'custom', path: ['timeouts', 'connectMs'], message: 'must be shorter than timeouts.requestMs' });
    }
  });

export type WebPushProviderConfig = z.infer<typeof webPushProviderConfigSchema>;
export type WebPushProviderConfigInput = z.input<typeof webPushProviderConfigSchema>;
