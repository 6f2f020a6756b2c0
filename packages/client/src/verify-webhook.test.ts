import { randomBytes } from 'node:crypto';
import { signatureHeader } from '@notify/webhooks';
import { isNotifyError } from './errors';
import { verifyWebhook } from './verify-webhook';

const secret = () => `whsec_${randomBytes(24).toString('base64')}`;
const body = JSON.stringify({ id: 'evt_1', type: 'notification.delivered', timestamp: '2026-12-01T00:00:00.000Z', data: { id: 'n1' } });

/** Headers as the platform's sender writes them, signed by every secret in `secrets`. */
function signed(secrets: string[], at = new Date()) {
  return {
    'webhook-id': 'evt_1',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatureHeader(secrets, 'evt_1', at, body),
  };
}

const codeOf = (run: () => unknown) => {
  try {
    run();
    return 'accepted';
  } catch (error) {
    return isNotifyError(error) ? error.code : String(error);
  }
};

it("accepts the platform's signature, with either secret while a rotation's grace lasts, from a Headers object too", () => {
  const [current, previous] = [secret(), secret()];
  const headers = signed([current, previous]);
  expect(verifyWebhook(headers, body, current)).toMatchObject({ id: 'evt_1', type: 'notification.delivered' });
  expect(verifyWebhook(new Headers(headers), Buffer.from(body), previous).id).toBe('evt_1');
});

it('refuses another secret, a changed body, a stale or future timestamp and missing headers', () => {
  const key = secret();
  const headers = signed([key]);
  expect(codeOf(() => verifyWebhook(headers, body, secret()))).toBe('UNAUTHORIZED');
  expect(codeOf(() => verifyWebhook(headers, body.replace('n1', 'n2'), key))).toBe('UNAUTHORIZED');
  expect(codeOf(() => verifyWebhook(signed([key], new Date(Date.now() - 301_000)), body, key))).toBe('UNAUTHORIZED');
  expect(codeOf(() => verifyWebhook(signed([key], new Date(Date.now() + 301_000)), body, key))).toBe('UNAUTHORIZED');
  expect(codeOf(() => verifyWebhook({ ...headers, 'webhook-signature': undefined }, body, key))).toBe('UNAUTHORIZED');
  expect(codeOf(() => verifyWebhook(signed([key], new Date(Date.now() - 60_000)), body, key))).toBe('accepted');
});
