import { createECDH, randomBytes } from 'node:crypto';
import { pushSubscriptionSchema } from '@notify/core';
import { isPushSubscription, providerAddress } from './push-address';

describe('providerAddress: the record’s address string back into what an adapter sends to', () => {
  const subscription = {
    endpoint: 'https://push.example.net/wpush/v2/abc',
    keys: { p256dh: createECDH('prime256v1').generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };

  it('returns a device token, a phone number or an e-mail address as it is', () => {
    for (const address of ['fcm-token:APA91b', '+905551112233', 'r@example.com']) expect(providerAddress(address)).toBe(address);
    expect(isPushSubscription('fcm-token:APA91b')).toBe(false);
  });

  it('turns the canonical string intake makes of a subscription back into the subscription', () => {
    const address = providerAddress(pushSubscriptionSchema.parse(subscription));
    expect(address).toEqual(subscription);
    expect(isPushSubscription(address)).toBe(true);
    expect(providerAddress(pushSubscriptionSchema.parse({ ...subscription, expirationTime: 1_900_000_000_000 }))).toEqual({
      ...subscription,
      expirationTime: 1_900_000_000_000,
    });
  });

  it('throws for a "{" string intake did not write, without quoting it', () => {
    expect(() => providerAddress('{"endpoint":"https://push.example.net/secret-path"')).toThrow(/not JSON/);
    expect(() => providerAddress('{"endpoint":"https://push.example.net/secret-path"}')).toThrow(/not a Web Push subscription/);
    expect(() => providerAddress('{"endpoint":"https://push.example.net/secret-path"}')).not.toThrow(/secret-path/);
  });
});
