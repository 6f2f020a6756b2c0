import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { DEFAULT_WEBHOOK_CONFIG, WebhookSender, newSecret, type WebhookEndpoint, type WebhookEvent } from '@notify/webhooks';
import { startReceiver, type Receiver } from './receiver';

/**
 * The sender on real sockets: the SSRF guard at send time (after resolution, on the addresses
 * the connection uses), no redirects followed, the answer's body capped, short timeouts, and
 * signatures a Standard Webhooks verifier accepts.
 */
const secret = newSecret();
const endpoint = (url: string, extra: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: 'ep_000000000000000000000001',
  tenant: 'tenant-a',
  url,
  events: ['notification.delivered'],
  createdAt: Date.now(),
  disabled: false,
  secret,
  ...extra,
});
const event: WebhookEvent = {
  id: 'evt_test1',
  type: 'endpoint.disabled',
  timestamp: new Date().toISOString(),
  data: { endpointId: 'ep_x', reason: 'test', disabledAt: 1 },
};
const config = (allowedHosts: string[], timeoutMs = 2_000) => ({ ...DEFAULT_WEBHOOK_CONFIG, allowedHosts, timeoutMs, connectTimeoutMs: 1_000 });

let receiver: Receiver;
const senders: WebhookSender[] = [];
const sender = (...args: ConstructorParameters<typeof WebhookSender>) => {
  const s = new WebhookSender(...args);
  senders.push(s);
  return s;
};

beforeAll(async () => {
  receiver = await startReceiver({ secrets: () => [secret] });
});
afterAll(async () => {
  for (const s of senders) await s.close();
  await receiver.close();
});

it('delivers to an allow-listed loopback address, signed so that the standardwebhooks verifier accepts it', async () => {
  const result = await sender(config(['127.0.0.1'])).send(endpoint(receiver.url), event);
  expect(result).toMatchObject({ ok: true, statusCode: 200 });
  const got = receiver.verified.at(-1)!;
  expect(got.headers['webhook-id']).toBe('evt_test1');
  expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
  expect(JSON.parse(got.body)).toEqual(event);
  expect(receiver.badSignatures).toEqual([]);
});

it('refuses at send time: a loopback IP not allow-listed, a name resolving to 127.0.0.1 (even with 127.0.0.1 allow-listed), metadata and private addresses', async () => {
  const before = receiver.requests.length;
  const rebinding = sender(config(['127.0.0.1']), { resolve: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]) });
  expect(await rebinding.send(endpoint(`http://hooks.example:${receiver.port}/hook`), event)).toMatchObject({ ok: false, errorClass: 'ssrf-refused' });
  const strict = sender(config([]));
  expect(await strict.send(endpoint(receiver.url), event)).toMatchObject({ ok: false, errorClass: 'ssrf-refused' });
  expect(await strict.send(endpoint(`http://localhost:${receiver.port}/hook`), event)).toMatchObject({ ok: false, errorClass: 'ssrf-refused' });
  for (const address of [
    '169.254.169.254',
    '10.0.0.1',
    '[fd00:ec2::254]',
    '[::1]',
    '100.64.0.1',
    '0.0.0.0',
    '[::ffff:127.0.0.1]',
    '[::127.0.0.1]',
    '[::a9fe:a9fe]',
  ]) {
    expect({ address, ...(await strict.send(endpoint(`http://${address}:${receiver.port}/hook`), event)) }).toMatchObject({
      address,
      ok: false,
      errorClass: 'ssrf-refused',
    });
  }
  const toPrivate = sender(config([]), { resolve: () => Promise.resolve([{ address: '192.168.1.10', family: 4 }]) });
  expect(await toPrivate.send(endpoint('https://hooks.example/hook'), event)).toMatchObject({ ok: false, errorClass: 'ssrf-refused' });
  expect(receiver.requests.length).toBe(before);
});

it('an allow-list entry with a port allows that port only, for an IP literal and for a name (the lookup knows the port)', async () => {
  const before = receiver.requests.length;
  const other = receiver.port === 65_535 ? receiver.port - 1 : receiver.port + 1;
  const byPort = sender(config([`127.0.0.1:${receiver.port}`]));
  expect(await byPort.send(endpoint(receiver.url), event)).toMatchObject({ ok: true, statusCode: 200 });
  expect(await byPort.send(endpoint(`http://127.0.0.1:${other}/hook`), event)).toMatchObject({ ok: false, errorClass: 'ssrf-refused' });
  const toLoopback = { resolve: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]) };
  const byName = sender(config([`hooks.internal:${receiver.port}`]), toLoopback);
  expect(await byName.send(endpoint(`http://hooks.internal:${receiver.port}/hook`), event)).toMatchObject({ ok: true, statusCode: 200 });
  expect(await byName.send(endpoint(`http://hooks.internal:${other}/hook`), event)).toMatchObject({ ok: false, errorClass: 'ssrf-refused' });
  expect(await byName.send(endpoint('http://hooks.internal/hook'), event)).toMatchObject({ ok: false, errorClass: 'ssrf-refused' });
  expect(receiver.requests.length).toBe(before + 2);
});

it('follows no redirect, reads a large answer only up to the cap, and times out a receiver that never answers', async () => {
  let redirectTargetHits = 0;
  let hugeBodyAborted = false;
  const server = http.createServer((req, res) => {
    req.resume();
    if (req.url === '/redirect') res.writeHead(302, { location: '/target' }).end();
    else if (req.url === '/target') {
      redirectTargetHits += 1;
      res.writeHead(200).end();
    } else if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 120);
      const timer = setInterval(() => res.write(chunk), 1);
      res.on('close', () => {
        clearInterval(timer);
        hugeBodyAborted = true;
      });
    } // '/silent': never answers
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const s = sender(config(['127.0.0.1'], 500));
    expect(await s.send(endpoint(`${base}/redirect`), event)).toMatchObject({ ok: false, statusCode: 302, errorClass: 'redirect' });
    expect(redirectTargetHits).toBe(0);
    expect(await s.send(endpoint(`${base}/huge`), event)).toMatchObject({ ok: true, statusCode: 200 });
    expect(await s.send(endpoint(`${base}/silent`), event)).toMatchObject({ ok: false, errorClass: 'timeout' });
    await s.close();
    expect(hugeBodyAborted).toBe(true);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

it('signs with the current and, during the grace period, the previous secret: a receiver holding either verifies', async () => {
  const previous = newSecret();
  const rotated = endpoint(receiver.url, { previousSecret: previous, previousSecretExpiresAt: Date.now() + 60_000 });
  await sender(config(['127.0.0.1'])).send(rotated, event);
  const got = receiver.requests.at(-1)!;
  expect(got.headers['webhook-signature']!.split(' ')).toHaveLength(2);
  expect(() => new Webhook(secret).verify(got.body, got.headers)).not.toThrow();
  expect(() => new Webhook(previous).verify(got.body, got.headers)).not.toThrow();
  expect(() => new Webhook(newSecret()).verify(got.body, got.headers)).toThrow();
  // After the grace period only the current secret signs.
  await sender(config(['127.0.0.1'])).send({ ...rotated, previousSecretExpiresAt: Date.now() - 1 }, event);
  const later = receiver.requests.at(-1)!;
  expect(later.headers['webhook-signature']!.split(' ')).toHaveLength(1);
  expect(() => new Webhook(previous).verify(later.body, later.headers)).toThrow();
});
