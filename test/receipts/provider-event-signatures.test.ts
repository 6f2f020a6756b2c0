import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSign } from 'node:crypto';
import request from 'supertest';
import { generate } from 'selfsigned';
import type { NotificationView } from '@notify/core';
import { readViews, waitAllTerminal } from '../harness/notification-poll';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { twilioSignature } from '../../apps/api/src/routes/provider-events/twilio-signature';

/**
 * Signed shapes are verified (docs/provider-events.md, "Signatures"): an HTTP SMS status callback
 * by its X-Twilio-Signature (HMAC-SHA1 keyed with the provider's event secret), an SNS message
 * by its RSA signature with the certificate at SigningCertURL, which must come from an allowed
 * host. The certificate is generated here and served from loopback (SNS_SIGNING_CERT_HOSTS).
 */
const EMAIL_SECRET = 'email-event-secret-0123456789';
const SMS_SECRET = 'sms-event-secret-0123456789ab';

let platform: TestPlatform;
let certServer: Server;
let certOrigin: string;
let signingKey: string;
let otherKey: string;
let certificateDownloads = 0;

beforeAll(async () => {
  const attrs = [{ name: 'commonName', value: 'sns.test' }];
  const [signing, other] = await Promise.all([generate(attrs, { keyType: 'rsa', keySize: 2048 }), generate(attrs, { keyType: 'rsa', keySize: 2048 })]);
  signingKey = signing.private;
  otherKey = other.private;
  certServer = createServer((req, res) => {
    if (req.url !== '/SimpleNotificationService-test.pem') {
      res.writeHead(404).end();
      return;
    }
    certificateDownloads += 1;
    res.writeHead(200, { 'content-type': 'application/x-pem-file' }).end(signing.cert);
  });
  await new Promise<void>((resolve) => certServer.listen(0, '127.0.0.1', resolve));
  certOrigin = `http://127.0.0.1:${(certServer.address() as AddressInfo).port}`;
  platform = await startTestPlatform({
    workerCount: 1,
    simEnv: { SIM_TRANSIENT_RATES: '0,0,0', SIM_PERMANENT_RATES: '0,0,0' },
    env: { PROVIDER_EVENT_SECRETS: `email:${EMAIL_SECRET},sms:${SMS_SECRET}`, SNS_SIGNING_CERT_HOSTS: certOrigin },
  });
}, 60_000);

afterAll(async () => {
  await platform?.stop();
  await new Promise((resolve) => certServer?.close(resolve));
});

let seq = 0;
async function deliver(recipientId: string, channel: 'email' | 'sms'): Promise<NotificationView> {
  seq += 1;
  const res = await request(platform.api.url)
    .post('/v1/notifications')
    .set('authorization', `Bearer ${TEST_API_KEY}`)
    .send({
      eventId: `signed-${Date.now()}-${seq}`,
      priority: 'urgent',
      recipient: { id: recipientId, addresses: { email: `${recipientId}@example.com`, sms: '+905551112233' }, preferences: [channel] },
      content: { title: 'Merhaba', body: 'Siparişiniz yolda.' },
    });
  expect(res.status).toBe(202);
  const [done] = await waitAllTerminal(platform.redis.url, [res.body.id as string], 30_000);
  return done!;
}
const view = async (id: string) => (await readViews(platform.redis.url, [id]))[0]!;

describe('X-Twilio-Signature on HTTP SMS status callbacks', () => {
  const path = '/v1/providers/sms/events';
  const callback = (params: Record<string, string>, signature: string) =>
    request(platform.api.url).post(path).type('form').set('x-twilio-signature', signature).send(params);

  it('a callback signed with the secret is applied without any Authorization; a wrong or altered one is a 401', async () => {
    const v = await deliver('twilio-user', 'sms');
    const params = { MessageSid: `notify-${v.id}`, MessageStatus: 'delivered', AccountSid: 'AC1', To: '+905551112233' };
    const url = `${platform.api.url}${path}`;
    const signed = await callback(params, twilioSignature(SMS_SECRET, url, params));
    expect([signed.status, signed.body]).toEqual([200, { status: 'applied', notificationId: v.id, notificationStatus: 'delivered' }]);
    expect((await view(v.id)).attempts[0]).toMatchObject({ receipt: 'delivered' });

    const wrongKey = await callback(params, twilioSignature(EMAIL_SECRET, url, params));
    expect([wrongKey.status, wrongKey.body.error?.code]).toEqual([401, 'UNAUTHORIZED']);
    expect(wrongKey.body.error.message).toContain('X-Twilio-Signature');
    const altered = await callback({ ...params, MessageStatus: 'failed' }, twilioSignature(SMS_SECRET, url, params));
    expect(altered.status).toBe(401);
    // With the shared secret, a signature that does not verify is still refused.
    const both = await request(platform.api.url)
      .post(path)
      .type('form')
      .set('authorization', `Bearer ${SMS_SECRET}`)
      .set('x-twilio-signature', 'bm90IGEgc2lnbmF0dXJl')
      .send(params);
    expect(both.status).toBe(401);
  }, 60_000);
});

describe('SNS message signatures', () => {
  const sns = (fields: Record<string, string>, key = signingKey, version = '2', certUrl = `${certOrigin}/SimpleNotificationService-test.pem`) => {
    const message: Record<string, string> = {
      Type: 'Notification',
      MessageId: `sns-${Date.now()}-${Math.random()}`,
      TopicArn: 'arn:aws:sns:eu-west-1:123456789012:ses-events',
      Timestamp: new Date().toISOString(),
      SignatureVersion: version,
      SigningCertURL: certUrl,
      ...fields,
    };
    const canonical = ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      .filter((name) => message[name] !== undefined)
      .map((name) => `${name}\n${message[name]}\n`)
      .join('');
    message.Signature = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
      .update(canonical)
      .sign(key, 'base64');
    return message;
  };
  const bounceOf = (id: string) => JSON.stringify({ notificationType: 'Bounce', mail: { messageId: `notify-${id}` }, bounce: { bounceType: 'Permanent' } });
  const post = (message: Record<string, string>) =>
    request(platform.api.url)
      .post('/v1/providers/email/events')
      .auth('sns', EMAIL_SECRET)
      .set('content-type', 'text/plain; charset=UTF-8')
      .send(JSON.stringify(message));

  it('SignatureVersion 2 and 1 with the allowed certificate are applied (the certificate downloaded once)', async () => {
    const a = await deliver('sns-v2', 'email');
    const b = await deliver('sns-v1', 'email');
    const v2 = await post(sns({ Message: bounceOf(a.id), Subject: 'Amazon SES Email Event Notification' }));
    expect(v2.body).toMatchObject({ status: 'applied', notificationStatus: 'bounced' });
    const v1 = await post(sns({ Message: bounceOf(b.id) }, signingKey, '1'));
    expect(v1.body).toMatchObject({ status: 'applied', notificationStatus: 'bounced' });
    expect(certificateDownloads).toBe(1);
  }, 60_000);

  it('a bad signature, an altered message, another key, an unknown version or a certificate from elsewhere is a 401, and nothing changes', async () => {
    const v = await deliver('sns-forged', 'email');
    const good = sns({ Message: bounceOf(v.id) });
    const cases: [string, Record<string, string>][] = [
      ['altered message', { ...good, Message: bounceOf(v.id).replace('Permanent', 'Permanent ') }],
      ['another key', sns({ Message: bounceOf(v.id) }, otherKey)],
      ['unknown version', sns({ Message: bounceOf(v.id) }, signingKey, '3')],
      ['host not allowed', sns({ Message: bounceOf(v.id) }, signingKey, '2', 'https://sns.eu-west-1.amazonaws.com.evil.example/cert.pem')],
      ['allowed host, not a certificate path', sns({ Message: bounceOf(v.id) }, signingKey, '2', `${certOrigin}/redirect`)],
    ];
    for (const [name, message] of cases) {
      const res = await post(message);
      expect([name, res.status, res.body.error?.code]).toEqual([name, 401, 'UNAUTHORIZED']);
    }
    expect((await view(v.id)).status).toBe('delivered');
    // The signed message without the shared secret: SNS signs for any AWS account, so the secret still authenticates the subscription.
    const unauthenticated = await request(platform.api.url).post('/v1/providers/email/events').set('content-type', 'text/plain').send(JSON.stringify(good));
    expect(unauthenticated.status).toBe(401);
    expect((await post(good)).body).toMatchObject({ status: 'applied', notificationStatus: 'bounced' });
  }, 60_000);
});
