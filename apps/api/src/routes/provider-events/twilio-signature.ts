import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';

/** The header Twilio (and providers that copy its callbacks) signs status callbacks in. */
export const TWILIO_SIGNATURE_HEADER = 'x-twilio-signature';

/**
 * Twilio's request signature: base64 HMAC-SHA1, keyed with the auth token, of the URL it
 * requested followed by every POST parameter's name and value, sorted by name.
 */
export function twilioSignature(secret: string, url: string, params: Readonly<Record<string, string | string[] | undefined>>): string {
  const data = Object.keys(params)
    .sort()
    .map((name) => {
      const value = params[name];
      const values = Array.isArray(value) ? [...value].sort() : [value ?? ''];
      return values.map((v) => `${name}${v}`).join('');
    })
    .join('');
  return createHmac('sha1', secret)
    .update(url + data, 'utf8')
    .digest('base64');
}

const first = (header: string | undefined) => header?.split(',')[0]?.trim() || undefined;

/**
 * The URLs the provider may have signed: behind a proxy the public scheme and host are in
 * X-Forwarded-Proto / X-Forwarded-Host, and Twilio signs the URL as configured, with or without
 * the default port. Any of them verifies: the HMAC key is the secret, so trying a few costs an
 * attacker nothing and spares operators a public-URL setting.
 */
function candidateUrls(req: Request): string[] {
  const protocols = new Set([first(req.get('x-forwarded-proto')), req.protocol].filter((p): p is string => p === 'http' || p === 'https'));
  const hosts = new Set([first(req.get('x-forwarded-host')), req.get('host')].filter((h): h is string => !!h));
  const urls = new Set<string>();
  for (const protocol of protocols) {
    const defaultPort = protocol === 'https' ? '443' : '80';
    for (const host of hosts) {
      const bare = host.replace(/:\d+$/, '');
      const port = /:(\d+)$/.exec(host)?.[1];
      urls.add(`${protocol}://${host}${req.originalUrl}`);
      if (port === defaultPort) urls.add(`${protocol}://${bare}${req.originalUrl}`);
      if (port === undefined) urls.add(`${protocol}://${bare}:${defaultPort}${req.originalUrl}`);
    }
  }
  return [...urls];
}

/** Whether the request's X-Twilio-Signature is the secret's signature of this request (compared in constant time). */
export function verifyTwilioSignature(req: Request, secret: string, params: Readonly<Record<string, string | string[] | undefined>>): boolean {
  const presented = Buffer.from(req.get(TWILIO_SIGNATURE_HEADER) ?? '', 'utf8');
  let ok = false;
  for (const url of candidateUrls(req)) {
    const expected = Buffer.from(twilioSignature(secret, url, params), 'utf8');
    if (expected.length === presented.length && timingSafeEqual(expected, presented)) ok = true;
  }
  return ok;
}
