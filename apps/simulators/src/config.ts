import { z } from 'zod';
import { CHANNELS, type Channel } from '@notify/core';
import { DEV_DEFAULTS, httpServerLimitsEnvShape, logLevelEnv, parseEnv, toHttpServerLimits, type HttpServerLimits } from '@notify/runtime';
import type { ChannelBehaviour } from './channel-faults';
import { loadTrackingStoresConfig, type TrackingStoresConfig } from './tracking';

const port = z.coerce.number().int().min(0).max(65_535);
const rates = z.string().transform((text, ctx) => {
  const parts = text.split(',').map((p) => Number(p.trim()));
  if (parts.length !== 3 || parts.some((n) => !Number.isFinite(n) || n < 0 || n > 1)) {
    ctx.addIssue({ code: 'custom', message: 'must be three rates in [0,1] for push,sms,email, e.g. 0.05,0.02,0.01' });
    return z.NEVER;
  }
  return parts as [number, number, number];
});

/** The variables only the simulators read (besides TRACKING_STORES_*: ./tracking/config.ts). */
export const simulatorsOwnEnvShape = {
  SIM_HOST: z.string().default(DEV_DEFAULTS.host).describe('Interface of the simulated providers and their control plane.'),
  SIM_CONTROL_PORT: port.default(DEV_DEFAULTS.simControlPort).describe('Control plane: channel faults, the ledger, `/metrics`.'),
  SIM_PUSH_PORT: port.default(DEV_DEFAULTS.providerPorts.push).describe('The simulated push provider.'),
  SIM_SMS_PORT: port.default(DEV_DEFAULTS.providerPorts.sms).describe('The simulated SMS provider.'),
  SIM_EMAIL_PORT: port.default(DEV_DEFAULTS.providerPorts.email).describe('The simulated e-mail provider.'),
  SIM_SEED: z.coerce.number().int().default(20260730).describe("Seed of the providers' random outcomes."),
  SIM_LATENCY_MS: z.coerce.number().int().min(0).max(60_000).default(20).describe('Latency of every simulated call.'),
  /** BI5: transient error per channel (push, sms, email). */
  SIM_TRANSIENT_RATES: rates.default([0.05, 0.02, 0.01]).describe('Transient error rate per channel, push,sms,email (BI5).'),
  /** BI6: permanent error per channel, a property of the address. */
  SIM_PERMANENT_RATES: rates.default([0.06, 0.02, 0.01]).describe('Permanent error rate per channel, a property of the address (BI6).'),
  LOG_LEVEL: logLevelEnv,
};

/** Every variable the simulators read (besides TRACKING_STORES_*), for the docs. */
export const simulatorsEnvShape = { ...httpServerLimitsEnvShape, ...simulatorsOwnEnvShape };
const schema = z.object(simulatorsEnvShape);

export interface SimulatorsConfig {
  host: string;
  controlPort: number;
  ports: Record<Channel, number>;
  seed: number;
  defaults: Record<Channel, ChannelBehaviour>;
  logLevel: string;
  /** Timeouts and connection cap of every simulator port (providers, control, tracking stores). */
  http: HttpServerLimits;
  /** The simulated tracking stores (their own TRACKING_STORES_* variables). */
  stores: TrackingStoresConfig;
}

export function loadConfig(env: Record<string, string | undefined>): SimulatorsConfig {
  const c = parseEnv('simulators', schema, env);
  const defaults = {} as Record<Channel, ChannelBehaviour>;
  CHANNELS.forEach((channel, i) => {
    defaults[channel] = {
      mode: 'up',
      latencyMs: c.SIM_LATENCY_MS,
      slowMs: 0,
      transientRate: c.SIM_TRANSIENT_RATES[i] as number,
      permanentRate: c.SIM_PERMANENT_RATES[i] as number,
    };
  });
  return {
    host: c.SIM_HOST,
    controlPort: c.SIM_CONTROL_PORT,
    ports: { push: c.SIM_PUSH_PORT, sms: c.SIM_SMS_PORT, email: c.SIM_EMAIL_PORT },
    seed: c.SIM_SEED,
    defaults,
    logLevel: c.LOG_LEVEL,
    http: toHttpServerLimits(c),
    stores: loadTrackingStoresConfig(env),
  };
}
