import { X509Certificate, verify, type KeyObject } from 'node:crypto';
import { NotifyError } from '@notify/core';

/** SNS_SIGNING_CERT_HOSTS' default: the certificates Amazon SNS signs with, in every region. */
export const DEFAULT_SNS_CERT_HOSTS = 'sns.*.amazonaws.com,sns.*.amazonaws.com.cn';

/** One allowed certificate origin: `https` unless it names a loopback host over `http` (tests, local look-alikes). */
export interface CertHostPattern {
  protocol: 'https:' | 'http:';
  host: RegExp;
  port: string;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;
const LABEL = /^(\*|[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)$/;

/**
 * SNS_SIGNING_CERT_HOSTS: comma-separated host patterns (`*` stands for one DNS label, e.g.
 * `sns.*.amazonaws.com`), each optionally with `:port`; `http://` only before a loopback host.
 * Throws a readable message for a bad entry.
 */
export function parseCertHostPatterns(raw: string): CertHostPattern[] {
  const entries = raw
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (entries.length === 0) throw new Error('must name at least one host pattern');
  return entries.map((entry) => {
    const http = entry.startsWith('http://');
    const rest = entry.replace(/^https?:\/\//, '');
    const [, host = '', port] = /^([^:/]+|\[::1\])(?::(\d{1,5}))?$/.exec(rest) ?? [];
    const labels = host.split('.');
    if (!host || (!LOOPBACK.test(host) && !labels.every((l) => LABEL.test(l)))) throw new Error(`'${entry}' is not a host pattern (host, *.host, host:port)`);
    if (http && !LOOPBACK.test(host)) throw new Error(`'${entry}': http is allowed for loopback hosts only (certificates come over https)`);
    const source = labels.map((l) => (l === '*' ? '[a-z0-9-]+' : l.replace(/[.[\]]/g, '\\$&'))).join('\\.');
    return { protocol: http ? 'http:' : 'https:', host: new RegExp(`^${source}$`), port: port ?? (http ? '80' : '443') };
  });
}

/** The fields SNS signs, per message type, in the order of its canonical string. */
const SIGNED_FIELDS: Record<string, readonly string[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

/** SNS's string to sign: `name\nvalue\n` for each signed field present (Subject only when there is one). */
export function snsCanonicalString(message: Readonly<Record<string, unknown>>): string {
  const fields = SIGNED_FIELDS[String(message.Type)];
  if (!fields) throw refused('Type', 'is not a message type SNS signs');
  return fields
    .map((name) => {
      const value = message[name];
      if (value === undefined && name === 'Subject') return '';
      if (typeof value !== 'string') throw refused(name, 'is part of the signed message and must be a string');
      return `${name}\n${value}\n`;
    })
    .join('');
}

const refused = (field: string, reason: string) => new NotifyError('UNAUTHORIZED', `SNS message signature not verified: ${field} ${reason}`);

export interface SnsVerifierOptions {
  hosts: readonly CertHostPattern[];
  /** How long one certificate download may take. Default 3 s. */
  fetchTimeoutMs?: number;
  /** Test seam: how a certificate is downloaded. */
  fetchPem?: (url: URL, timeoutMs: number) => Promise<string>;
  now?: () => number;
}

interface LoadedCertificate {
  key: KeyObject;
  validFrom: number;
  validTo: number;
}

const MAX_CERT_BYTES = 16 * 1024;
const MAX_CACHED = 32;

async function downloadPem(url: URL, timeoutMs: number): Promise<string> {
  // No redirects: an allowed host must not send the download elsewhere.
  const res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  const body = await res.text();
  if (!res.ok) throw new Error(`certificate download answered ${res.status}`);
  if (body.length > MAX_CERT_BYTES) throw new Error('certificate larger than 16 KB');
  return body;
}

/**
 * Verifies Amazon SNS message signatures (SignatureVersion 1: RSA SHA-1, 2: RSA SHA-256) with the
 * certificate at SigningCertURL, fetched only from an allowed host (SNS_SIGNING_CERT_HOSTS) over
 * https, never following a redirect, and cached by URL (SNS signs with a few certificates).
 */
export class SnsSignatureVerifier {
  readonly #certificates = new Map<string, Promise<LoadedCertificate>>();
  readonly #fetchPem: (url: URL, timeoutMs: number) => Promise<string>;
  readonly #now: () => number;

  constructor(private readonly options: SnsVerifierOptions) {
    this.#fetchPem = options.fetchPem ?? downloadPem;
    this.#now = options.now ?? Date.now;
  }

  /** Resolves when `message` carries a valid signature; throws a 401 NotifyError naming the field otherwise. */
  async verify(message: Readonly<Record<string, unknown>>): Promise<void> {
    const algorithm = message.SignatureVersion === '1' ? 'RSA-SHA1' : message.SignatureVersion === '2' ? 'RSA-SHA256' : undefined;
    if (!algorithm) throw refused('SignatureVersion', "must be '1' or '2'");
    if (typeof message.Signature !== 'string' || message.Signature === '') throw refused('Signature', 'is missing');
    const canonical = snsCanonicalString(message);
    const key = await this.#certificateKey(message.SigningCertURL);
    if (!verify(algorithm, Buffer.from(canonical, 'utf8'), key, Buffer.from(message.Signature, 'base64')))
      throw refused('Signature', 'does not match the message');
  }

  #allowed(raw: unknown): URL {
    let url: URL;
    try {
      url = new URL(String(raw));
    } catch {
      throw refused('SigningCertURL', 'is not a URL');
    }
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    const ok = this.options.hosts.some((p) => p.protocol === url.protocol && p.host.test(url.hostname) && p.port === port);
    if (!ok || url.username || url.password || !url.pathname.endsWith('.pem'))
      throw refused('SigningCertURL', 'is not an allowed certificate source (SNS_SIGNING_CERT_HOSTS)');
    return url;
  }

  async #certificateKey(raw: unknown): Promise<KeyObject> {
    const url = this.#allowed(raw);
    let loading = this.#certificates.get(url.href);
    if (!loading) {
      loading = this.#fetchPem(url, this.options.fetchTimeoutMs ?? 3_000).then((pem) => {
        const certificate = new X509Certificate(pem);
        return { key: certificate.publicKey, validFrom: Date.parse(certificate.validFrom), validTo: Date.parse(certificate.validTo) };
      });
      // A failed download is not remembered: the next message tries again.
      loading.catch(() => this.#certificates.delete(url.href));
      if (this.#certificates.size >= MAX_CACHED) this.#certificates.delete(this.#certificates.keys().next().value as string);
      this.#certificates.set(url.href, loading);
    }
    let certificate: LoadedCertificate;
    try {
      certificate = await loading;
    } catch (error) {
      throw new NotifyError('UNAUTHORIZED', 'SNS message signature not verified: the SigningCertURL certificate could not be loaded', { cause: error });
    }
    const now = this.#now();
    if (certificate.validFrom > now || certificate.validTo < now) throw refused('SigningCertURL', 'names a certificate that is not valid now');
    return certificate.key;
  }
}
