import { z } from 'zod';

/**
 * A channel's behaviour, switchable at run time (the chaos CLI drives this):
 * - `up`: normal, with the configured latency and error rates;
 * - `down`: the provider's port is closed (connection refused);
 * - `slow`: every call takes `slowMs` more (the provider still delivers after the delay);
 * - `transientRate` / `permanentRate` override BI5/BI6 for this channel.
 */
export const channelBehaviourSchema = z.strictObject({
  mode: z.enum(['up', 'down', 'slow']),
  latencyMs: z.number().int().min(0).max(60_000),
  slowMs: z.number().int().min(0).max(600_000),
  transientRate: z.number().min(0).max(1),
  permanentRate: z.number().min(0).max(1),
});
export type ChannelBehaviour = z.infer<typeof channelBehaviourSchema>;

export const behaviourPatchSchema = channelBehaviourSchema.partial();
export type BehaviourPatch = z.infer<typeof behaviourPatchSchema>;
