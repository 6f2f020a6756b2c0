import { z } from 'zod';
import { timeoutMsSchema, providerEntryFields } from '../config-fields';

/** An alphanumeric sender (TON 5) is at most 11 GSM characters; a numeric one at most 15 digits (E.164). */
const SOURCE_ADDR = /^(\+?[0-9]{1,15}|[A-Za-z0-9 .\-_&]{1,11})$/;

const timeoutsSchema = z.strictObject({
  /** TCP connect (and TLS handshake) to the SMSC. */
  connectMs: timeoutMsSchema.default(5_000),
  /** bind_transceiver → bind_transceiver_resp. */
  bindMs: timeoutMsSchema.default(5_000),
  /** submit_sm written → submit_sm_resp; past it the outcome is unknown (the SMSC may have accepted it). */
  submitMs: timeoutMsSchema.default(10_000),
  /** How long a send waits for a bound session (while re-binding) before failing as transient, not sent. */
  unboundWaitMs: z.number().int().nonnegative().default(5_000),
  /** How long a send waits for a free place in the window before failing as transient, not sent. */
  windowWaitMs: z.number().int().nonnegative().default(10_000),
  /** enquire_link → enquire_link_resp; past it the session counts as lost and is re-bound. */
  enquireLinkMs: timeoutMsSchema.default(10_000),
});

/**
 * One SMPP 3.4 provider (an SMSC reached over a bound transceiver session). The credentials go
 * either in `url` (`smpp://systemId:password@host:port`, `ssmpp://` for TLS) or in
 * `host`/`port`/`systemId`/`password`; separate fields win over the URL's parts.
 * The schema is a plain object (refinements only), so it can sit in a discriminated union on `kind`.
 * Its messages never repeat an input value (the password may be inside one).
 */
export const smppProviderConfigSchema = z
  .strictObject({
    ...providerEntryFields('smpp', 'sms'),
    url: z.string().optional(),
    host: z.string().min(1).optional(),
    port: z.number().int().min(1).max(65_535).optional(),
    tls: z.boolean().optional(),
    /** SMPP 3.4 allows 15 characters of system_id and 8 of password; some SMSCs take more, so up to 32 are let through. */
    systemId: z.string().min(1).max(32).optional(),
    password: z.string().max(32).optional(),
    systemType: z.string().max(12).default(''),
    /** The sender: an E.164 number (`+905551112233`), a short code, or an alphanumeric name (≤ 11 characters). */
    sourceAddr: z.string().regex(SOURCE_ADDR, 'must be an E.164 number, a short code or an alphanumeric sender of at most 11 characters'),
    /** PDUs outstanding at once (submit_sm written, no submit_sm_resp yet). */
    window: z.number().int().min(1).max(1_000).default(10),
    timeouts: timeoutsSchema.prefault({}),
    /** An enquire_link every this often keeps the session (and NAT state) alive and detects a dead peer. */
    enquireLinkMs: z.number().int().positive().default(30_000),
    /** Re-bind backoff after a lost session or a refused bind: doubles from `initialMs` up to `maxMs`. */
    rebind: z.object({ initialMs: z.number().int().positive().default(250), maxMs: z.number().int().positive().default(30_000) }).prefault({}),
  })
  .superRefine((config, ctx) => {
    let fromUrl: Partial<SmppEndpoint> = {};
    if (config.url !== undefined) {
      const parsed = parseSmppUrl(config.url);
      if (!parsed) {
        ctx.addIssue({ code: 'custom', path: ['url'], message: 'must look like smpp://systemId:password@host:port (or ssmpp:// for TLS)' });
        return;
      }
      fromUrl = parsed;
    }
    if ((config.host ?? fromUrl.host) === undefined) ctx.addIssue({ code: 'custom', path: ['host'], message: 'required (or give url)' });
    if ((config.systemId ?? fromUrl.systemId) === undefined) ctx.addIssue({ code: 'custom', path: ['systemId'], message: 'required (or give url)' });
    if ((config.password ?? fromUrl.password) === undefined) ctx.addIssue({ code: 'custom', path: ['password'], message: 'required (or give url)' });
  });

export type SmppProviderConfig = z.infer<typeof smppProviderConfigSchema>;
export type SmppProviderConfigInput = z.input<typeof smppProviderConfigSchema>;

/** Where and as whom to bind, resolved from `url` and the separate fields. */
export interface SmppEndpoint {
  host: string;
  port: number;
  tls: boolean;
  systemId: string;
  password: string;
}

/** Parses `smpp://user:pass@host:port`; undefined when it is not such a URL. */
export function parseSmppUrl(url: string): Partial<SmppEndpoint> | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'smpp:' && parsed.protocol !== 'ssmpp:') return undefined;
  if (!parsed.hostname) return undefined;
  const tls = parsed.protocol === 'ssmpp:';
  const result: Partial<SmppEndpoint> = { host: parsed.hostname, port: parsed.port ? Number(parsed.port) : tls ? 3550 : 2775, tls };
  try {
    if (parsed.username) result.systemId = decodeURIComponent(parsed.username);
    if (parsed.password) result.password = decodeURIComponent(parsed.password);
  } catch {
    return undefined;
  }
  return result;
}

/** The endpoint of a parsed config (the schema guarantees every part is present). */
export function resolveSmppEndpoint(config: SmppProviderConfig): SmppEndpoint {
  const fromUrl = config.url !== undefined ? (parseSmppUrl(config.url) ?? {}) : {};
  const host = config.host ?? fromUrl.host;
  const systemId = config.systemId ?? fromUrl.systemId;
  const password = config.password ?? fromUrl.password;
  if (host === undefined || systemId === undefined || password === undefined) {
    throw new Error(`SMPP provider ${config.name}: host, systemId and password are required (parse the config with smppProviderConfigSchema)`);
  }
  const tls = config.tls ?? fromUrl.tls ?? false;
  return { host, port: config.port ?? fromUrl.port ?? (tls ? 3550 : 2775), tls, systemId, password };
}
