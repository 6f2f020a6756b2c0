import request from 'supertest';
import { LoopbackSmtp } from '@notify/providers/testing';
import type { TestPlatform } from '../harness/platform';
import { TEST_API_KEY } from '../harness/platform';
import { oneChannel, postNotification, startWithProviders, waitTerminal } from '../providers/real-provider-harness';
import { rawHeader, unsubscribeUrlOf } from './unsubscribe-links';

/**
 * RFC 8058 one-click unsubscribe end to end: the real SMTP adapter sends to its loopback peer,
 * the test reads List-Unsubscribe from the received message and POSTs to it as a mailbox
 * provider does; the next e-mail of that category is skipped as opted out, without a call.
 */
let peer: LoopbackSmtp;
let platform: TestPlatform;

beforeAll(async () => {
  peer = await LoopbackSmtp.start({ user: 'notify', password: 'smtp-pw-Unsub-4410' });
  platform = await startWithProviders([peer.providerConfig()], { CONSENT_CACHE_MS: '0' });
  const security = await request(platform.api.url)
    .put('/v1/categories/security')
    .set('authorization', `Bearer ${TEST_API_KEY}`)
    .send({ name: 'Codes', required: true });
  expect(security.status).toBe(201);
});

afterAll(async () => {
  await platform?.stop();
  await peer?.close();
});

const content = { title: 'Haftanın fırsatları', body: 'Yeni ürünler geldi.' };
const email = (eventId: string, address: string, category?: string) => ({
  ...oneChannel('email', eventId, `user-${address}`, address, content),
  ...(category ? { category } : {}),
});

/** Where the api really listens: the link's path and query on the test api's origin. */
const onApi = (url: URL) => `${platform.api.url}${url.pathname}`;

it('carries List-Unsubscribe one-click headers; a POST to the link opts the recipient out of that category, and the next e-mail is skipped', async () => {
  const address = 'unsub.elif@example.com';
  const first = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, email('news-1', address)));
  expect(first.status).toBe('delivered');
  const [mail] = peer.mailsTo(address);
  const header = rawHeader(mail!, 'List-Unsubscribe');
  expect(rawHeader(mail!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  const link = unsubscribeUrlOf(header);
  expect(link.pathname.length).toBeLessThan(120);
  expect(header).not.toContain('elif');
  expect(header).not.toContain(encodeURIComponent(address));

  // A link scanner's GET changes nothing.
  expect((await request(onApi(link)).get('')).status).toBe(200);
  const stillSent = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, email('news-2', address)));
  expect(stillSent.status).toBe('delivered');

  // As a mailbox provider does it (RFC 8058 §3.2), twice: idempotent.
  for (let i = 0; i < 2; i += 1) {
    const post = await request(onApi(link)).post('').type('form').send('List-Unsubscribe=One-Click');
    expect(post.status).toBe(200);
  }
  const calls = peer.rcptCalls.get(address);
  const skipped = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, email('news-3', address)));
  expect(skipped.status).toBe('opted-out');
  expect(skipped.failureReason).toBe('all-channels-opted-out');
  expect(skipped.attempts).toEqual([]);
  expect(skipped.skips).toEqual([expect.objectContaining({ channel: 'email', reason: 'opted-out' })]);
  expect(peer.rcptCalls.get(address)).toBe(calls);

  // A required category ignores the opt-out and carries no unsubscribe link.
  const code = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, email('code-1', address, 'security')));
  expect(code.status).toBe('delivered');
  const last = peer.mailsTo(address).at(-1)!;
  expect(rawHeader(last, 'List-Unsubscribe')).toBeUndefined();
});

it('refuses a tampered, unknown-secret or malformed token with one 400 that names no recipient, then rate-limits the client', async () => {
  const address = 'tamper.can@example.com';
  await waitTerminal(platform.redis.url, await postNotification(platform.api.url, email('tamper-1', address)));
  const link = unsubscribeUrlOf(rawHeader(peer.mailsTo(address)[0]!, 'List-Unsubscribe'));
  const [id, body] = link.pathname.slice('/u/'.length).split('.') as [string, string];
  const bytes = Buffer.from(body, 'base64url');
  bytes[6] = (bytes[6] ?? 0) ^ 0xff; // another recipient hash
  const forged = [`${id}.${bytes.toString('base64url')}`, `other.${body}`, 'x', `${id}.${body.slice(0, 10)}`];
  for (const token of forged) {
    const res = await request(platform.api.url).post(`/u/${token}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('UNSUBSCRIBE_LINK_INVALID');
    expect(JSON.stringify(res.body)).not.toMatch(/tamper|recipient '/);
  }
  let status = 400;
  for (let i = 0; i < 30 && status === 400; i += 1) status = (await request(platform.api.url).get('/u/x')).status;
  expect(status).toBe(429);
  // The e-mail still goes out: nothing forged opted anyone out.
  const after = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, email('tamper-2', address)));
  expect(after.status).toBe('delivered');
});
