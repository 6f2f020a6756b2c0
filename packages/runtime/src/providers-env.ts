import { z } from 'zod';
import { CHANNELS, type Channel } from '@notify/core';
import { loadProviderKinds, loadProviderRoutes, loadProvidersFile, resolveProviders, type ProviderConfig, type ProviderKind } from '@notify/providers';

const unknownOutcomePolicy = z.enum(['settle', 'resend']).default('settle');
const unknownOutcome = (description: string) => unknownOutcomePolicy.describe(description);

/**
 * The providers' variables, shared by the api (reads the routes: which providers serve each
 * channel, for the breakers) and the worker (builds every adapter).
 */
export const providersEnvShape = {
  PROVIDERS_FILE: z.string().min(1).optional().meta({
    description:
      "A YAML or JSON file listing each channel's providers in the order they are tried (SMTP, Web Push, FCM, SMPP, HTTP SMS, simulators); `${NAME}` in a value is read from the environment, so secrets stay out of the file. A channel it does not name keeps its simulator. The api reads only the names (the breakers are per provider); workers build the adapters. See [providers](../packages/providers/README.md).",
    defaultText: 'none (the simulators)',
    mustSet: 'your providers (unset: every channel goes to the simulators)',
  }),
  UNKNOWN_OUTCOME_PUSH: unknownOutcome(
    'An unknown outcome (a timeout after the request left) on a push provider that takes no idempotency key (Web Push, FCM): `settle` ends the notification `unconfirmed` (never sent twice), `resend` re-sends on the same provider (at least once). Providers that honour a key (the simulators) always reconcile.',
  ),
  UNKNOWN_OUTCOME_SMS: unknownOutcome('The same for SMS providers (SMPP, HTTP SMS).'),
  UNKNOWN_OUTCOME_EMAIL: unknownOutcome('The same for e-mail providers (SMTP).'),
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
