import { z } from 'zod';

/** A provider's configured name: unique across channels, used by breakers, metrics and attempt records. */
export const providerNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9-]{0,39}$/, 'a provider name is lowercase letters, digits and dashes (e.g. sms-a, email-smtp)');

/** A call timeout in milliseconds. */
export const timeoutMsSchema = z.number().int().min(50).max(600_000);

/** Sockets kept open to one provider (its bulkhead). */
export const connectionsSchema = z.number().int().min(1).max(1_000);

/** The fields every provider entry of one kind starts with: its kind, its name, and the one channel it serves. */
export function providerEntryFields<K extends string, C extends string>(kind: K, channel: C) {
  return { kind: z.literal(kind), name: providerNameSchema, channel: z.literal(channel).default(channel) };
}
