import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, randomUUID, type ECDH } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';
import { generate } from 'selfsigned';
import webPush from 'web-push';
import type { PushSubscriptionAddress } from '../adapter';
import type { WebPushProviderConfigInput } from '../web-push/config';

/** What the loopback push service answers for a subscription (after checking VAPID and decrypting). */
export type PushServiceBehaviour = 'accept' | 'not-found' | 'gone' | 'too-large' | 'busy' | 'error' | 'stall';

const ANSWERS: Record<Exclude<PushServiceBehaviour, 'stall'>, { status: number; body?: string }> = {
  accept: { status: 201 },
  'not-found': { status: 404, body: JSON.stringify({ code: 404, errno: 102, error: 'Not Found', message: 'Request did not validate invalid token' }) },
  gone: { status: 410, body: JSON.stringify({ code: 410, errno: 106, error: 'Gone', message: 'Request did not validate subscription expired' }) },
  'too-large': { status: 413, body: JSON.stringify({ code: 413, errno: 104, error: 'Payload Too Large', message: 'This message is too large' }) },
  busy: { status: 429, body: JSON.stringify({ reason: 'TooManyRequests' }) },
  error: { status: 500, body: JSON.stringify({ reason: 'InternalServerError' }) },
};

/** One push message the service accepted for checking: VAPID verified, payload decrypted. */
export interface ReceivedPush {
  subscriptionId: string;
  ttl: string | undefined;
  urgency: string | undefined;
  contentEncoding: string | undefined;
  /** The VAPID JWT's claims, verified with the `k=` key (ES256). */
  claims: { aud: unknown; exp: unknown; sub: unknown };
  vapidPublicKey: string;
  /** The plaintext after RFC 8291 decryption with the subscription's private key. */
  plaintext: string;
  /** Size of the encrypted body. */
  bodyBytes: number;
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

interface Subscriber {
  ecdh: ECDH;
  auth: Buffer;
  behaviour: PushServiceBehaviour;
}

/**
 * An RFC 8030 push service on loopback (HTTPS with a self-signed certificate: `ca` trusts it).
 * Every request must carry a VAPID authorization (RFC 8292) whose ES256 JWT verifies with the
 * `k=` key, names this origin as `aud`, expires within 24 hours and has the expected `sub`, and
 * the `k=` key must be the expected one: otherwise 401 (403 for another key). The body is
 * decrypted (RFC 8291 aes128gcm) with the subscription's private key; a body that does not
 * decrypt is answered 400. Then the subscription's behaviour answers.
 */
export class LoopbackPushService {
  readonly received: ReceivedPush[] = [];
  /** Requests refused before the behaviour (VAPID or decryption), with the reason. */
  readonly refused: string[] = [];
  /** Every request that arrived, refused or not. */
  requests = 0;
  readonly #subscribers = new Map<string, Subscriber>();
  readonly #server: Server;
  /** The VAPID key pair subscriptions are made for, and the `sub` every JWT must carry. */
  readonly vapid: VapidKeys;
  readonly subject: string;
  readonly ca: string;

  private constructor(server: Server, ca: string, subject: string, vapid: VapidKeys) {
    this.#server = server;
    this.ca = ca;
    this.subject = subject;
    this.vapid = vapid;
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      void this.#handle(req, res);
    });
  }

  /** `vapid`: the key pair the subscriptions are made for (default: a new one). */
  static async start(options: { subject?: string; vapid?: VapidKeys } = {}): Promise<LoopbackPushService> {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec', algorithm: 'sha256' });
    const server = createServer({ key: pems.private, cert: pems.cert });
    const service = new LoopbackPushService(server, pems.cert, options.subject ?? 'mailto:ops@notify.example', options.vapid ?? webPush.generateVAPIDKeys());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return service;
  }

  /** A `web-push` provider entry trusting this service (name `push-web`), with `overrides` on top. */
  providerConfig(overrides: Partial<WebPushProviderConfigInput> = {}): WebPushProviderConfigInput {
    return { kind: 'web-push', name: 'push-web', vapid: { subject: this.subject, ...this.vapid }, tls: { ca: this.ca }, ...overrides };
  }

  get origin(): string {
    return `https://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** A new subscription (as a browser's PushManager.subscribe would give it) answered with `behaviour`. */
  subscribe(behaviour: PushServiceBehaviour = 'accept'): PushSubscriptionAddress & { id: string } {
    const id = randomUUID();
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    this.#subscribers.set(id, { ecdh, auth, behaviour });
    return { id, endpoint: `${this.origin}/push/${id}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.requests += 1;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const refuse = (status: number, reason: string) => {
      this.refused.push(reason);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ reason }));
    };
    const id = /^\/push\/([0-9a-f-]+)$/.exec(req.url ?? '')?.[1];
    const subscriber = id ? this.#subscribers.get(id) : undefined;
    if (!id || !subscriber || req.method !== 'POST') return refuse(404, 'no such subscription');

    const vapid = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(req.headers.authorization ?? '');
    if (!vapid) return refuse(401, 'missing VAPID authorization');
    const [, token, k] = vapid as unknown as [string, string, string];
    let claims: ReceivedPush['claims'];
    try {
      const point = Buffer.from(k, 'base64url');
      const key = createPublicKey({
        key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
        format: 'jwk',
      });
      const { payload } = await jwtVerify(token, key, { algorithms: ['ES256'], audience: this.origin, subject: this.subject });
      const now = Math.floor(Date.now() / 1000);
      if (typeof payload.exp !== 'number' || payload.exp <= now || payload.exp > now + 24 * 3600) return refuse(401, 'VAPID exp must be within 24 hours');
      claims = { aud: payload.aud, exp: payload.exp, sub: payload.sub };
    } catch (error) {
      return refuse(401, `VAPID JWT does not verify: ${(error as Error).message}`);
    }
    if (k !== this.vapid.publicKey) return refuse(403, 'VAPID key is not the subscription applicationServerKey');
    if (req.headers['content-encoding'] !== 'aes128gcm') return refuse(415, 'content-encoding must be aes128gcm');

    let plaintext: string;
    try {
      plaintext = decryptAes128gcm(body, subscriber.ecdh, subscriber.auth).toString('utf8');
    } catch (error) {
      return refuse(400, `payload does not decrypt: ${(error as Error).message}`);
    }
    this.received.push({
      subscriptionId: id,
      ttl: header(req, 'ttl'),
      urgency: header(req, 'urgency'),
      contentEncoding: header(req, 'content-encoding'),
      claims,
      vapidPublicKey: k,
      plaintext,
      bodyBytes: body.length,
    });
    if (subscriber.behaviour === 'stall') return; // the request was read; no answer until the service closes
    const answer = ANSWERS[subscriber.behaviour];
    if (answer.status === 201) res.setHeader('location', `${this.origin}/m/${randomUUID()}`);
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body ?? '');
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/**
 * RFC 8291 (Message Encryption for Web Push) over RFC 8188 aes128gcm, decrypted with node
 * crypto only — independent of the `web-push`/`http_ece` code that encrypted it.
 * Header: salt (16) | record size (4) | key id length (1) | key id (the sender's public key).
 */
export function decryptAes128gcm(body: Buffer, receiver: ECDH, authSecret: Buffer): Buffer {
  if (body.length < 21) throw new Error('body shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  const senderPublic = body.subarray(21, 21 + idLength);
  const records = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`key id must be the 65-byte sender key, is ${idLength} bytes`);
  if (records.length > recordSize) throw new Error('more than one record (a push message is one record)');
  const receiverPublic = receiver.getPublicKey();
  const ecdhSecret = receiver.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiverPublic, senderPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 0x02) throw new Error('the last record must end with the 0x02 delimiter');
  return padded.subarray(0, end);
}
