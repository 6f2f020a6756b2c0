import { z } from 'zod';
import { CHANNELS, type Channel } from '@notify/core';
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

const schema = z.object({
  SIM_HOST: z.string().default('127.0.0.1'),
  SIM_CONTROL_PORT: port.default(4100),
  SIM_PUSH_PORT: port.default(4101),
  SIM_SMS_PORT: port.default(4102),
  SIM_EMAIL_PORT: port.default(4103),
  SIM_SEED: z.coerce.number().int().default(20260730),
  SIM_LATENCY_MS: z.coerce.number().int().min(0).max(60_000).default(20),
  /** BI5: transient error per channel (push, sms, email). */
  SIM_TRANSIENT_RATES: rates.default([0.05, 0.02, 0.01]),
  /** BI6: permanent error per channel, a property of the address. */
  SIM_PERMANENT_RATES: rates.default([0.06, 0.02, 0.01]),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface SimulatorsConfig {
  host: string;
  controlPort: number;
  ports: Record<Channel, number>;
  seed: number;
  defaults: Record<Channel, ChannelBehaviour>;
  logLevel: string;
  /** The simulated tracking stores (their own TRACKING_STORES_* variables). */
  stores: TrackingStoresConfig;
}

export function loadConfig(env: Record<string, string | undefined>): SimulatorsConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`invalid simulators configuration:\n${lines}`);
  }
  const c = parsed.data;
  const defaults = {} as Record<Channel, ChannelBehaviour>;
  CHANNELS.forEach((channel, i) => {
    defaults[channel] = {
      mode: 'up', latencyMs: c.SIM_LATENCY_MS, slowMs: 0,
      transientRate: c.SIM_TRANSIENT_RATES[i] as number, permanentRate: c.SIM_PERMANENT_RATES[i] as number,
    };
  });
  return {
    host: c.SIM_HOST, controlPort: c.SIM_CONTROL_PORT,
    ports: { push: c.SIM_PUSH_PORT, sms: c.SIM_SMS_PORT, email: c.SIM_EMAIL_PORT },
    seed: c.SIM_SEED, defaults, logLevel: c.LOG_LEVEL, stores: loadTrackingStoresConfig(env),
  };
}
