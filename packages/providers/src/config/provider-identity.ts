import type { Channel } from '@notify/core';
import type { ProviderAdapter, ProviderKind } from '../adapter';
import { SIMULATOR_CAPABILITIES } from '../simulator/simulator-adapter';

/**
 * What an inbound provider event is checked against (docs/provider-events.md): the channel the
 * provider serves, and whether its message ids are the idempotency keys it was given.
 */
export interface ProviderIdentity {
  name: string;
  kind: ProviderKind;
  channel: Channel;
  /** The provider answers the idempotency key as its message id (ProviderCapabilities.echoesIdempotencyKey). */
  echoesIdempotencyKey: boolean;
}

/** Per kind, read where the api knows a provider without building its adapter: the adapters' own declarations. */
const ECHOES_BY_KIND: Readonly<Record<ProviderKind, boolean>> = {
  simulator: SIMULATOR_CAPABILITIES.echoesIdempotencyKey === true,
  smtp: false,
  'web-push': false,
  fcm: false,
  smpp: false,
  'http-sms': false,
};

export function providerIdentity(name: string, kind: ProviderKind, channel: Channel): ProviderIdentity {
  return { name, kind, channel, echoesIdempotencyKey: ECHOES_BY_KIND[kind] };
}

/** A built adapter's identity (the worker's providers). */
export function identityOfAdapter(adapter: ProviderAdapter): ProviderIdentity {
  return { name: adapter.name, kind: adapter.kind, channel: adapter.channel, echoesIdempotencyKey: adapter.capabilities.echoesIdempotencyKey === true };
}
