import { CHANNELS, NotifyError, validationError, type Addresses, type Channel, type NotificationRequest, type QuietSettings } from '@notify/core';
import type { IntakeDeps } from './intake-types';

/**
 * The request's addresses and preferences, or the stored profile's when it names none; `profile`
 * is the stored profile's time settings when it was read (an inline recipient reads none).
 */
export async function recipientAddresses(
  deps: Pick<IntakeDeps, 'recipients' | 'carriable'>,
  tenant: string,
  request: NotificationRequest,
): Promise<{ addresses: Addresses; preferences: readonly Channel[] | undefined; profile?: QuietSettings }> {
  let { addresses, preferences } = request.recipient;
  let profile: QuietSettings | undefined;
  if (addresses === undefined) {
    const stored = await deps.recipients.get(tenant, request.recipient.id);
    if (!stored) {
      throw new NotifyError(
        'RECIPIENT_NOT_FOUND',
        `recipient '${request.recipient.id}' has no stored profile; send recipient.addresses or PUT /v1/recipients/${request.recipient.id} first`,
      );
    }
    addresses = stored.addresses;
    preferences = preferences ?? stored.preferences;
    profile = { timeZone: stored.timeZone, quietHours: stored.quietHours };
  }
  refuseUncarriable(deps.carriable, addresses, request.recipient.addresses === undefined);
  return { addresses, preferences, ...(profile ? { profile } : {}) };
}

/** An address no provider of its channel can ever carry is refused now (400 naming it), not discovered by a worker. */
function refuseUncarriable(carriable: IntakeDeps['carriable'], addresses: Addresses, stored: boolean): void {
  if (!carriable) return;
  const details = CHANNELS.flatMap((c) => {
    const address = addresses[c];
    if (address === undefined || carriable(c, address)) return [];
    const form = c === 'push' && address.startsWith('{') ? 'a Web Push subscription' : 'this form of address';
    return [{ field: `recipient.addresses.${c}`, reason: `no configured ${c} provider can carry ${form}${stored ? ' (in the stored profile)' : ''}` }];
  });
  if (details.length > 0) throw validationError(details);
}
