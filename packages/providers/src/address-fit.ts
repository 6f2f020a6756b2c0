import type { ProviderKind } from './adapter';

/**
 * Whether a provider of `kind` can carry an address in its stored form (a string; a Web Push
 * subscription is its canonical JSON, starting with `{`). Only push has two forms: Web Push
 * takes a subscription, FCM a device token; the simulators take both. A channel whose providers
 * differ here routes each call to the first healthy provider that can carry its address.
 */
export function providerCarries(kind: ProviderKind, storedAddress: string): boolean {
  const subscription = storedAddress.startsWith('{');
  switch (kind) {
    case 'web-push':
      return subscription;
    case 'fcm':
      return !subscription;
    default:
      return true;
  }
}

/** True when some address could fit one of these kinds and not another: the channel must pick by address. */
export function kindsDifferInWhatTheyCarry(kinds: readonly ProviderKind[]): boolean {
  const forms = ['{"endpoint":""}', 'token'];
  return forms.some((form) => new Set(kinds.map((k) => providerCarries(k, form))).size > 1);
}
