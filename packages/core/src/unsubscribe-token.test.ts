import { parseUnsubscribeSecrets, signUnsubscribeToken, verifyUnsubscribeToken, type UnsubscribeClaims } from './unsubscribe-token';

const claims: UnsubscribeClaims = { tenant: 'acme', rh: '0123456789abcdef0123456789abcdef', category: 'news', channel: 'email', expiresAt: 2_000_000_000 };
const current = { id: 'k2', secret: 'a-second-secret-of-16+' };
const old = { id: 'k1', secret: 'the-first-secret-16+' };

describe('unsubscribe tokens', () => {
  it('round-trips its claims, is short and holds no recipient id in clear', () => {
    const token = signUnsubscribeToken(claims, [current]);
    expect(token.length).toBeLessThan(90);
    expect(token).not.toContain('acme');
    expect(verifyUnsubscribeToken(token, [current], 1_000)).toEqual(claims);
  });

  it('verifies with any listed secret, so a rotation keeps older links working until the old secret is dropped', () => {
    const token = signUnsubscribeToken(claims, [old]);
    expect(verifyUnsubscribeToken(token, [current, old], 1_000)).toEqual(claims);
    expect(verifyUnsubscribeToken(token, [current], 1_000)).toBeUndefined();
  });

  it('refuses a tampered, re-labelled, truncated or expired token', () => {
    const token = signUnsubscribeToken(claims, [current]);
    const [id, body] = token.split('.') as [string, string];
    const bytes = Buffer.from(body, 'base64url');
    bytes[30] = (bytes[30] ?? 0) ^ 1;
    expect(verifyUnsubscribeToken(`${id}.${bytes.toString('base64url')}`, [current], 1_000)).toBeUndefined();
    expect(verifyUnsubscribeToken(`k1.${body}`, [current, { id: 'k1', secret: current.secret }], 1_000)).toBeUndefined();
    expect(verifyUnsubscribeToken(token.slice(0, 20), [current], 1_000)).toBeUndefined();
    expect(verifyUnsubscribeToken(token, [current], claims.expiresAt + 1)).toBeUndefined();
    expect(verifyUnsubscribeToken('garbage', [current], 1_000)).toBeUndefined();
    expect(verifyUnsubscribeToken(`${token}x`, [current], 1_000)).toBeUndefined();
  });

  it('parses the rotation list and refuses weak secrets', () => {
    expect(parseUnsubscribeSecrets('k2:a-second-secret-of-16+, k1:the-first-secret-16+')).toEqual([current, old]);
    expect(() => parseUnsubscribeSecrets('k1:short')).toThrow(/at least 16/);
  });
});
