import { z } from 'zod';
import { CHANNELS } from '@notify/core';
import { connectionsSchema, providerNameSchema, timeoutMsSchema } from '../config-fields';

/**
 * One simulated provider (apps/simulators): `POST <url>/v1/messages` with an Idempotency-Key.
 * The default entry of every channel.
 */
export const simulatorProviderConfigSchema = z.strictObject({
  kind: z.literal('simulator'),
  name: providerNameSchema,
  channel: z.enum(CHANNELS),
  url: z.url({ protocol: /^https?$/ }),
  /** The simulators' control API serving this provider: the chaos CLI kills and restores the provider there. */
  controlUrl: z.url({ protocol: /^https?$/ }).optional(),
  connections: connectionsSchema.default(64),
  timeoutMs: timeoutMsSchema.default(2_000),
});
export type SimulatorProviderConfig = z.infer<typeof simulatorProviderConfigSchema>;
export type SimulatorProviderConfigInput = z.input<typeof simulatorProviderConfigSchema>;
