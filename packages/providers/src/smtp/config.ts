import { z } from 'zod';
import { timeoutMsSchema, providerEntryFields } from '../config-fields';

/** `smtp://user:pass@host:port` (STARTTLS when offered, or required with requireTls) or `smtps://...` (TLS from the first byte). */
const smtpUrlSchema = z.string().refine(
  (value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
    } catch {
      return false;
    }
  },
  // The message never echoes the value: it carries the password.
  { message: 'must be smtp://[user:pass@]host[:port] or smtps://[user:pass@]host[:port]' },
);

/** A sender: `notify@example.com` or `Example <notify@example.com>`. */
const fromSchema = z.string().refine((value) => fromAddress(value) !== undefined, { message: 'must be an address or "Name <address>"' });

/**
 * One SMTP provider. `url` holds the password: it is read once here and never logged or
 * echoed (errors name the field, not the value). PROVIDERS_FILE entries take it from env.
 */
export const smtpProviderConfigSchema = z.strictObject({
  ...providerEntryFields('smtp', 'email'),
  url: smtpUrlSchema,
  from: fromSchema,
  /** The domain of generated Message-IDs; defaults to the sender's domain. */
  messageIdDomain: z
    .string()
    .regex(/^[A-Za-z0-9.-]+$/)
    .optional(),
  /** smtp:// only: refuse to send unless the server upgrades with STARTTLS. */
  requireTls: z.boolean().default(false),
  tls: z
    .strictObject({
      /** Verify the server's certificate (keep true in production). */
      rejectUnauthorized: z.boolean().default(true),
      /** Extra trusted CA certificates (PEM), e.g. a private relay's. */
      ca: z.string().optional(),
      servername: z.string().optional(),
    })
    .default({ rejectUnauthorized: true }),
  pool: z
    .strictObject({
      maxConnections: z.number().int().min(1).max(100).default(5),
      /** Messages per connection before it is recycled. */
      maxMessages: z.number().int().min(1).max(100_000).default(100),
    })
    .default({ maxConnections: 5, maxMessages: 100 }),
  connectionTimeoutMs: timeoutMsSchema.default(5_000),
  greetingTimeoutMs: timeoutMsSchema.default(5_000),
  /** Inactivity on an open connection; a server silent after DATA's final dot past this is an unknown outcome. */
  socketTimeoutMs: timeoutMsSchema.default(15_000),
});
export type SmtpProviderConfig = z.infer<typeof smtpProviderConfigSchema>;
export type SmtpProviderConfigInput = z.input<typeof smtpProviderConfigSchema>;

/** The bare address of a `from` value, or undefined. */
export function fromAddress(from: string): string | undefined {
  const match = /^\s*(?:[^<>]*<\s*([^<>\s]+@[^<>\s]+)\s*>|([^<>\s]+@[^<>\s]+))\s*$/.exec(from);
  return match?.[1] ?? match?.[2];
}

export interface SmtpEndpoint {
  host: string;
  port: number;
  secure: boolean;
  auth?: { user: string; pass: string };
}

/** Host, port, implicit TLS and credentials of an smtp:// or smtps:// URL (587 and 465 by default). */
export function parseSmtpUrl(value: string): SmtpEndpoint {
  const url = new URL(value);
  const secure = url.protocol === 'smtps:';
  const port = url.port === '' ? (secure ? 465 : 587) : Number(url.port);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const endpoint: SmtpEndpoint = { host, port, secure };
  if (url.username !== '') endpoint.auth = { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) };
  return endpoint;
}
