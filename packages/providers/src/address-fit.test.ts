import { kindsDifferInWhatTheyCarry, providerCarries } from './address-fit';

const subscription = JSON.stringify({ endpoint: 'https://push.example/x', keys: { p256dh: 'p', auth: 'a' } });

describe('which provider carries which address', () => {
  it('Web Push takes subscriptions, FCM device tokens, the others any address', () => {
    expect(providerCarries('web-push', subscription)).toBe(true);
    expect(providerCarries('web-push', 'device-token')).toBe(false);
    expect(providerCarries('fcm', 'device-token')).toBe(true);
    expect(providerCarries('fcm', subscription)).toBe(false);
    expect(providerCarries('simulator', subscription)).toBe(true);
    expect(providerCarries('smpp', '+905551112233')).toBe(true);
  });

  it('a channel must pick by address only when its providers differ in what they carry', () => {
    expect(kindsDifferInWhatTheyCarry(['web-push', 'fcm'])).toBe(true);
    expect(kindsDifferInWhatTheyCarry(['fcm', 'simulator'])).toBe(true);
    expect(kindsDifferInWhatTheyCarry(['simulator', 'simulator'])).toBe(false);
    expect(kindsDifferInWhatTheyCarry(['smpp', 'http-sms'])).toBe(false);
    expect(kindsDifferInWhatTheyCarry(['fcm'])).toBe(false);
  });
});
