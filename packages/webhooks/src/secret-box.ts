import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Webhook signing secrets at rest: AES-256-GCM under a key from the environment
 * (`WEBHOOK_SECRET_KEYS=<id>:<base64 of 32 bytes>,...`). The first key encrypts every secret
 * written; every listed key decrypts, found by the key id stored with the ciphertext, so a key
 * is rotated by putting a new one first and keeping the old ones until every secret has been
 * rewritten (docs/webhooks.md). A secret stored before encryption (`whsec_...`) still reads.
 * Stored form: `enc1:<key id>:<base64url iv>:<base64url tag>:<base64url ciphertext>`; the
 * endpoint id is the additional data, so a ciphertext copied onto another endpoint does not open.
 */
export interface SecretKey {
  id: string;
  key: Buffer;
}

const PREFIX = 'enc1';
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** Parses `WEBHOOK_SECRET_KEYS`; throws naming the entry that is not `<id>:<base64 of 32 bytes>`. */
export function parseSecretKeys(text: string | undefined): SecretKey[] {
  const entries = (text ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const keys = entries.map((entry, index) => {
    const at = entry.indexOf(':');
    const id = at > 0 ? entry.slice(0, at) : '';
    const key = Buffer.from(entry.slice(at + 1), 'base64');
    if (!KEY_ID.test(id) || key.length !== 32) throw new Error(`entry ${index + 1} must be <id>:<base64 of 32 random bytes> (id: letters, digits, - or _)`);
    return { id, key };
  });
  if (new Set(keys.map((k) => k.id)).size !== keys.length) throw new Error('key ids must not repeat');
  return keys;
}

export class SecretBox {
  private readonly byId: Map<string, Buffer>;

  constructor(private readonly keys: readonly SecretKey[]) {
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  /** The stored form of `secret` for endpoint `endpointId`: encrypted under the first key, or as is without keys. */
  seal(secret: string, endpointId: string): string {
    const current = this.keys[0];
    if (!current) return secret;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', current.key, iv);
    cipher.setAAD(Buffer.from(endpointId));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [PREFIX, current.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join(':');
  }

  /** The secret of a stored value; a plain one as is. Throws when its key is not configured or it was tampered with. */
  open(stored: string, endpointId: string): string {
    if (!stored.startsWith(`${PREFIX}:`)) return stored;
    const [, keyId, iv, tag, ciphertext] = stored.split(':');
    const key = this.byId.get(keyId ?? '');
    if (!key || iv === undefined || tag === undefined || ciphertext === undefined)
      throw new Error(`webhook secret sealed under key '${keyId}', which WEBHOOK_SECRET_KEYS does not hold`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(endpointId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Whether a stored value is not sealed under the current key (plain, or an older key): rewrite it. */
  isStale(stored: string): boolean {
    const current = this.keys[0];
    if (!current) return false;
    return !stored.startsWith(`${PREFIX}:${current.id}:`);
  }
}

export const PLAIN_SECRETS = new SecretBox([]);
