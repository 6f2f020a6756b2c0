import { signUnsubscribeToken, type UnsubscribeSecret } from '@notify/core';
import type { RedisClient } from '@notify/runtime';
import type { StepConsent } from '../step/step-context';
import { ConsentSettings } from './consent-settings';
import { OptOutStore } from './opt-out-store';

export interface ConsentServiceConfig {
  cacheMs: number;
  publicBaseUrl: string;
  /** Empty: e-mails carry no unsubscribe link. */
  unsubscribeSecrets: readonly UnsubscribeSecret[];
  tokenTtlSeconds: number;
}

/** The consent stores of one process (api or worker) and the one-click link its e-mails carry. */
export function createConsentServices(
  redis: RedisClient,
  config: ConsentServiceConfig,
  partitions: number,
  now: () => number = Date.now,
): Required<StepConsent> | StepConsent {
  const settings = new ConsentSettings(redis, { cacheMs: config.cacheMs, now });
  const optOuts = new OptOutStore(redis, settings, partitions);
  if (config.unsubscribeSecrets.length === 0) return { settings, optOuts };
  return {
    settings,
    optOuts,
    unsubscribeUrl: (to) =>
      `${config.publicBaseUrl}/u/${signUnsubscribeToken({ ...to, expiresAt: Math.floor(now() / 1000) + config.tokenTtlSeconds }, config.unsubscribeSecrets)}`,
  };
}
