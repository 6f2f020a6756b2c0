import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { NotifyError } from '@notify/core';
import { createLogger } from '@notify/runtime';
import { startPrivateRedis as startTestRedis } from '@notify/platform-kit';

const PHONE = '+905551112233';
const EMAIL = 'ayse.yilmaz@example.com';
const PUSH_TOKEN = 'fcm-token-7f3a9c2e1b';
const API_KEY = 'sk-live-tenant-a-0123456789';
const SECRETS = [PHONE, EMAIL, PUSH_TOKEN, API_KEY];

/** A pino destination that keeps every line, parsed. */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      callback();
    },
  });
  return { stream, lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const addresses = { push: PUSH_TOKEN, sms: PHONE, email: EMAIL };
const notification = { eventId: 'e1', priority: 'urgent', recipient: { id: 'r1', addresses }, content: { title: 'Hi', body: 'There' } };

/** Shapes a log call may realistically carry (an object passed as the first pino argument). */
const CASES: [string, Record<string, unknown>][] = [
  ['authorization at the top', { authorization: `Bearer ${API_KEY}` }],
  ['request headers', { req: { method: 'POST', headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' } } }],
  ['outgoing headers, capitalised', { request: { headers: { Authorization: `Bearer ${API_KEY}` } } }],
  ['headers two levels down', { err: { config: { headers: { authorization: `Bearer ${API_KEY}` } } } }],
  ['addresses at the top', { addresses }],
  ['a stored profile', { profile: { addresses, preferences: ['sms'] } }],
  ['a notification request', { notification }],
  ['an intake body', { body: notification }],
  ['a request body one level deeper', { req: { body: notification } }],
  ['a batch body (addresses inside an array)', { body: { notifications: [notification, notification] } }],
  ['a provider call', { to: PHONE, channel: 'sms' }],
  ['a provider request body', { request: { to: EMAIL, message: { subject: 'Hi' } } }],
  ['a provider request body, nested', { call: { body: { to: PUSH_TOKEN } } }],
  ['phone and push token fields (names that mean nothing but an address)', { phone: PHONE, pushToken: PUSH_TOKEN, sms: { to: EMAIL } }],
  ["a recipient's address fields", { recipient: { id: 'r1', phone: PHONE, email: EMAIL, pushToken: PUSH_TOKEN } }],
  ["a recipient's address fields, nested", { job: { data: { recipient: { email: EMAIL } } }, phone: PHONE, pushToken: PUSH_TOKEN }],
];

describe('createLogger redaction', () => {
  it.each(CASES)('redacts %s', (_name, fields) => {
    const out = capture();
    const logger = createLogger('api', 'info', out.stream);
    logger.info(fields, 'something happened');
    expect(out.lines).toHaveLength(1);
    const line = out.lines[0] as string;
    for (const secret of SECRETS) expect(line).not.toContain(secret);
    expect(line).toContain('[redacted]');
    // The log line itself survives: app name, message, level.
    expect(out.records()[0]).toMatchObject({ app: 'api', msg: 'something happened', level: 30 });
  });

  it('keeps the fields that are not personal data', () => {
    const out = capture();
    createLogger('worker', 'info', out.stream).info({ notificationId: 'a'.repeat(32), channel: 'sms', step: 2, recipient: { id: 'r1', addresses } }, 'sent');
    const record = out.records()[0] as { notificationId: string; channel: string; step: number; recipient: { id: string; addresses: unknown } };
    expect(record).toMatchObject({ notificationId: 'a'.repeat(32), channel: 'sms', step: 2 });
    expect(record.recipient).toEqual({ id: 'r1', addresses: '[redacted]' });
  });

  it("keeps a key named after a channel: the simulators' start-up log shows the e-mail provider's URL", () => {
    const out = capture();
    const providers = { push: 'http://127.0.0.1:4101', sms: 'http://127.0.0.1:4102', email: 'http://127.0.0.1:4103' };
    createLogger('simulators', 'info', out.stream).info({ providers, control: 'http://127.0.0.1:4100' }, 'simulated providers listening');
    expect(out.lines[0]).not.toContain('[redacted]');
    expect((out.records()[0] as { providers: unknown }).providers).toEqual(providers);
    // The same key inside a channel breakdown keeps its numbers too.
    const counts = capture();
    createLogger('worker', 'info', counts.stream).info({ deliveries: { push: 3, sms: 2, email: 1 }, channel: 'email' }, 'summary');
    expect(counts.records()[0]).toMatchObject({ deliveries: { push: 3, sms: 2, email: 1 }, channel: 'email' });
  });

  it('redacts by where an address occurs, not only where these cases put it', () => {
    const out = capture();
    const logger = createLogger('api', 'info', out.stream);
    logger.info({ profile: { recipient: { email: EMAIL } } }, 'a');
    logger.info({ step: { call: { to: EMAIL } } }, 'b');
    logger.info({ batch: { items: { addresses } } }, 'c');
    expect(out.lines).toHaveLength(3);
    for (const line of out.lines) for (const secret of SECRETS) expect(line).not.toContain(secret);
  });

  it('redacts the command arguments ioredis attaches to a Redis error (the intake script gets addresses)', async () => {
    // A real Redis refusing a write (full, noeviction): ioredis puts the command's args on the error.
    const server = await startTestRedis({ args: ['--maxmemory', '1'] });
    const client = new Redis(server.url, { maxRetriesPerRequest: 0 });
    let error: unknown;
    try {
      await client.set('{notify}:n:x', JSON.stringify(addresses)).catch((e: unknown) => {
        error = e;
      });
    } finally {
      client.disconnect();
      await server.stop();
    }
    expect((error as { command?: { args?: unknown[] } }).command?.args).toContain(JSON.stringify(addresses));
    const out = capture();
    const logger = createLogger('api', 'error', out.stream);
    logger.error({ err: error, reqId: 'r-1' }, 'request failed');
    // The error middleware logs the cause of a NotifyError the same way.
    logger.error({ err: new NotifyError('INTERNAL', 'unexpected intake failure', { cause: error }) }, 'request failed');
    expect(out.lines).toHaveLength(2);
    for (const line of out.lines) for (const secret of SECRETS) expect(line).not.toContain(secret);
    const first = out.records()[0] as { err: { message: string; command: { name: string; args: unknown } } };
    expect(first.err.message).toMatch(/OOM/);
    expect(first.err.command).toEqual({ name: 'set', args: '[redacted]' });
  });

  it('applies to child loggers with bound fields', () => {
    const out = capture();
    const child = createLogger('worker', 'info', out.stream).child({ component: 'step' });
    child.info({ job: { data: { to: PHONE } } }, 'x');
    child.info({ addresses }, 'y');
    for (const line of out.lines) for (const secret of SECRETS) expect(line).not.toContain(secret);
    expect(out.records().map((r) => r.component)).toEqual(['step', 'step']);
  });
});
