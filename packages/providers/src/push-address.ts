import type { ProviderAddress, PushSubscriptionAddress } from './adapter';

/** A Web Push subscription as intake canonicalises it: the contract's fields and the optional expiry (ms since the epoch). */
export interface StoredPushSubscription extends PushSubscriptionAddress {
  expirationTime?: number;
}

/**
 * The address one send goes to, from the string the record holds. Intake turns a Web Push
 * subscription into its canonical JSON (`pushSubscriptionSchema` in @notify/core) and refuses a
 * device token starting with `{`, so a string starting with `{` is a subscription; any other
 * string (a device token, a phone number, an e-mail address) is returned as it is.
 * Throws for a `{` string that is not a subscription (the record was not written by intake).
 */
export function providerAddress(address: string): ProviderAddress {
  if (!address.startsWith('{')) return address;
  let value: unknown;
  try {
    value = JSON.parse(address);
  } catch {
    throw new Error('the push address starts with "{" but is not JSON (a Web Push subscription was expected)');
  }
  const subscription = value as Partial<StoredPushSubscription> | null;
  const keys = subscription?.keys as Partial<PushSubscriptionAddress['keys']> | undefined;
  if (typeof subscription?.endpoint !== 'string' || typeof keys?.p256dh !== 'string' || typeof keys.auth !== 'string') {
    throw new Error('the push address starts with "{" but is not a Web Push subscription (endpoint, keys.p256dh, keys.auth)');
  }
  return {
    endpoint: subscription.endpoint,
    keys: { p256dh: keys.p256dh, auth: keys.auth },
    ...(typeof subscription.expirationTime === 'number' ? { expirationTime: subscription.expirationTime } : {}),
  };
}

export function isPushSubscription(to: ProviderAddress): to is StoredPushSubscription {
  return typeof to === 'object' && to !== null && typeof to.endpoint === 'string';
}
