import { z } from 'zod';
import { CHANNELS, type Channel } from '@notify/core';
import { loadProviderKinds, loadProviderRoutes, loadProvidersFile, resolveProviders, type ProviderConfig, type ProviderKind } from '@notify/providers';

const unknownOutcomePolicy = z.enum(['settle', 'resend']).default('settle');

/**
 * The providers' variables, shared by the api (reads the routes: which providers serve each
 * channel, for the breakers) and the worker (builds every adapter).
 */
export const providersEnvShape = {
  /** Each channel's providers in the order they are tried (YAML or JSON; README "Connecting real providers"). Unset: the simulators. */
  PROVIDERS_FILE: z.string().min(1).optional(),
  /**
   * What an unknown outcome (a timeout after the request left) becomes on a provider that takes
   * no idempotency key: `settle` ends it `unconfirmed` (never sent twice), `resend` re-sends (at least once).
   */
  UNKNOWN_OUTCOME_PUSH: unknownOutcomePolicy,
  UNKNOWN_OUTCOME_SMS: unknownOutcomePolicy,
  UNKNOWN_OUTCOME_EMAIL: unknownOutcomePolicy,
};

export interface ProvidersEnv {
  PROVIDERS_FILE?: string | undefined;
  UNKNOWN_OUTCOME_PUSH: 'settle' | 'resend';
  UNKNOWN_OUTCOME_SMS: 'settle' | 'resend';
  UNKNOWN_OUTCOME_EMAIL: 'settle' | 'resend';
}

export interface ProvidersConfig {
  /** Every provider, each channel's in the order they are tried; holds secrets: never log it. */
  providers: ProviderConfig[];
  routes: Record<Channel, string[]>;
  unknownOutcome: Record<Channel, 'settle' | 'resend'>;
}

/** The default simulator of each channel (named after it), used where PROVIDERS_FILE names none. */
export type SimulatorDefaults = Record<Channel, { url: string; timeoutMs: number; connections: number }>;

/** The worker's view: every adapter's validated configuration, `${...}` references resolved from `env`. */
export function toProvidersConfig(c: ProvidersEnv, env: Readonly<Record<string, string | undefined>>, simulators: SimulatorDefaults): ProvidersConfig {
  const providers = resolveProviders(c.PROVIDERS_FILE === undefined ? undefined : loadProvidersFile(c.PROVIDERS_FILE, env), simulators);
  const routes = Object.fromEntries(CHANNELS.map((ch) => [ch, providers.filter((p) => p.channel === ch).map((p) => p.name)])) as Record<Channel, string[]>;
  return {
    providers,
    routes,
    unknownOutcome: { push: c.UNKNOWN_OUTCOME_PUSH, sms: c.UNKNOWN_OUTCOME_SMS, email: c.UNKNOWN_OUTCOME_EMAIL },
  };
}

/** The api's view: provider names per channel only (no secrets needed). */
export function toProviderRoutes(c: Pick<ProvidersEnv, 'PROVIDERS_FILE'>): Record<Channel, string[]> {
  return loadProviderRoutes(c.PROVIDERS_FILE);
}

/** The api's view: each channel's provider kinds, so intake refuses an address no provider of its channel can carry. */
export function toProviderKinds(c: Pick<ProvidersEnv, 'PROVIDERS_FILE'>): Record<Channel, ProviderKind[]> {
  return loadProviderKinds(c.PROVIDERS_FILE);
}
