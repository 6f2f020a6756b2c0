import { sharedEnvShape } from './config-fragments';
import { consentEnvShape } from './consent-env';
import { historyEnvShape } from './history-env';
import { httpServerLimitsEnvShape } from './http-server-limits';
import { providersEnvShape } from './providers-env';

/**
 * The variables of this package that the api and the worker both read: the process basics, the
 * HTTP server limits, the history store, PROVIDERS_FILE (the api reads only the provider names
 * per channel, for the breakers' routes; the workers build the adapters) and consent. Each app
 * adds the breakers' and the webhooks' shapes, which live with their packages.
 */
export const serviceEnvShape = {
  ...sharedEnvShape,
  ...httpServerLimitsEnvShape,
  ...historyEnvShape,
  PROVIDERS_FILE: providersEnvShape.PROVIDERS_FILE,
  ...consentEnvShape,
};
