import { createHmac, timingSafeEqual } from 'node:crypto';
import { CHANNELS, type Channel } from './channels';

/** One signing secret of the unsubscribe links; `id` names it inside the token, so secrets can rotate. */
export interface UnsubscribeSecret {
  id: string;
  secret: string;
}

/** What a one-click unsubscribe link opts out of. The recipient is its hash: no id or address in clear. */
export interface UnsubscribeClaims {
  tenant: string;
  /** recipientHash(tenant, recipient id): 32 hex characters. */
  rh: string;
  category: string;
  channel: Channel;
  /** Unix seconds after which the link is refused. */
  expiresAt: number;
}

const MAC_BYTES = 16;
const VERSION = 1;

/**
 * `<secret id>.<base64url(version, expiry, recipient hash, channel, tenant, category, HMAC-SHA256/128)>`:
 * about 70 characters for short tenant and category names. The first secret signs; every listed
 * one verifies, so a new secret goes first and the old one stays until its links have expired.
 */
export function signUnsubscribeToken(claims: UnsubscribeClaims, secrets: readonly UnsubscribeSecret[]): string {
  const signer = secrets[0];
  if (!signer) throw new Error('no unsubscribe secret configured');
  const tenant = Buffer.from(claims.tenant, 'utf8');
  const category = Buffer.from(claims.category, 'utf8');
  if (tenant.length > 255 || category.length > 255) throw new RangeError('tenant or category too long for an unsubscribe token');
  const head = Buffer.alloc(1 + 4 + 16 + 1 + 1);
  head.writeUInt8(VERSION, 0);
  head.writeUInt32BE(claims.expiresAt, 1);
  Buffer.from(claims.rh, 'hex').copy(head, 5);
  head.writeUInt8(CHANNELS.indexOf(claims.channel), 21);
  head.writeUInt8(tenant.length, 22);
  const body = Buffer.concat([head, tenant, category]);
  return `${signer.id}.${Buffer.concat([body, mac(signer.secret, signer.id, body)]).toString('base64url')}`;
}

/** The claims of a valid, unexpired token signed by a listed secret; undefined for anything else (one answer for every fault). */
export function verifyUnsubscribeToken(token: string, secrets: readonly UnsubscribeSecret[], nowSeconds: number): UnsubscribeClaims | undefined {
  if (token.length > 700) return undefined;
  const dot = token.indexOf('.');
  if (dot < 1) return undefined;
  const signer = secrets.find((s) => s.id === token.slice(0, dot));
  const raw = token.slice(dot + 1);
  if (!signer || !/^[A-Za-z0-9_-]+$/.test(raw)) return undefined;
  const bytes = Buffer.from(raw, 'base64url');
  // Only the canonical encoding: base64url decoding drops stray trailing characters, and one link must have one spelling.
  if (bytes.length < 23 + MAC_BYTES || bytes.toString('base64url') !== raw) return undefined;
  const body = bytes.subarray(0, bytes.length - MAC_BYTES);
  if (!timingSafeEqual(bytes.subarray(bytes.length - MAC_BYTES), mac(signer.secret, signer.id, body))) return undefined;
  const tenantLength = body.readUInt8(22);
  const channel = CHANNELS[body.readUInt8(21)];
  const expiresAt = body.readUInt32BE(1);
  if (body.readUInt8(0) !== VERSION || channel === undefined || 23 + tenantLength > body.length || expiresAt < nowSeconds) return undefined;
  return {
    tenant: body.subarray(23, 23 + tenantLength).toString('utf8'),
    rh: body.subarray(5, 21).toString('hex'),
    category: body.subarray(23 + tenantLength).toString('utf8'),
    channel,
    expiresAt,
  };
}

/** The secret id is signed too: a token cannot be moved under another secret's name. */
function mac(secret: string, id: string, body: Buffer): Buffer {
  return createHmac('sha256', secret).update(id).update('\0').update(body).digest().subarray(0, MAC_BYTES);
}

/** `id:secret,id:secret` (the first signs); secrets of at least 16 characters. */
export function parseUnsubscribeSecrets(raw: string): UnsubscribeSecret[] {
  return raw
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf(':');
      const id = pair.slice(0, at).trim();
      const secret = pair.slice(at + 1).trim();
      if (at < 1 || !/^[A-Za-z0-9_-]{1,16}$/.test(id)) throw new Error(`each entry must be id:secret with an id of 1-16 letters, digits, _ or -`);
      if (secret.length < 16) throw new Error(`the secret of '${id}' must be at least 16 characters`);
      return { id, secret };
    });
}
