import { createHash } from 'node:crypto';
import { z } from 'zod';
import { CHANNELS, type Channel } from './channels';
import { partitionTag } from './names';

/**
 * Categories and opt-outs (docs/preferences.md). A tenant's categories and its "some recipient
 * has opted out" mark live in one tenant-scoped hash; a recipient's opt-outs in a hash beside
 * its profile, in its partition (the step's record shares that slot). Keys hold no PII.
 */

/** The category of a notification that names none; every tenant has it (optional, all channels) unless it redefines it. */
export const DEFAULT_CATEGORY = 'default';

export const CATEGORY_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export const categoryIdSchema = z.string().regex(CATEGORY_ID_PATTERN, 'must be 1-64 characters of letters, digits and . _ -');

const channelList = z
  .array(z.enum(CHANNELS))
  .min(1, 'must name at least one channel')
  .max(CHANNELS.length)
  .refine((list) => new Set(list).size === list.length, 'must not repeat a channel');

/** `PUT /v1/categories/:id`. `required`: opt-outs never apply (security codes, legal notices); `channels`: the only ones it may use. */
export const categorySchema = z.strictObject({
  name: z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  required: z.boolean().default(false),
  channels: channelList.optional(),
});

export type Category = z.infer<typeof categorySchema>;

const channelSwitches = z.strictObject({ push: z.boolean().optional(), sms: z.boolean().optional(), email: z.boolean().optional() });

/**
 * `PUT /v1/recipients/:id/preferences`: per channel (every category) and per category × channel,
 * `false` = opted out, `true` = opted in. The body replaces what was stored.
 */
export const optOutPreferencesSchema = z.strictObject({
  channels: channelSwitches.optional(),
  categories: z
    .record(categoryIdSchema, channelSwitches)
    .refine((value) => Object.keys(value).length <= 100, 'must name at most 100 categories')
    .optional(),
});

export type OptOutPreferences = z.infer<typeof optOutPreferencesSchema>;

/** The opt-out hash's field of (category, channel); the category `*` stands for every category (the global switch). */
export function optOutField(category: string, channel: Channel): string {
  return `${category}:${channel}`;
}

/** The hash's fields of a preferences body: '0' opted out, '1' opted in. */
export function optOutFields(preferences: OptOutPreferences): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const channel of CHANNELS) {
    const global = preferences.channels?.[channel];
    if (global !== undefined) fields[optOutField('*', channel)] = global ? '1' : '0';
  }
  for (const [category, switches] of Object.entries(preferences.categories ?? {})) {
    for (const channel of CHANNELS) {
      const value = switches[channel];
      if (value !== undefined) fields[optOutField(category, channel)] = value ? '1' : '0';
    }
  }
  return fields;
}

/** The stored fields back as a preferences body. */
export function optOutPreferencesOf(fields: Record<string, string>): OptOutPreferences {
  const channels: Partial<Record<Channel, boolean>> = {};
  const categories: Record<string, Partial<Record<Channel, boolean>>> = {};
  for (const [field, value] of Object.entries(fields)) {
    const at = field.lastIndexOf(':');
    const category = field.slice(0, at);
    const channel = field.slice(at + 1) as Channel;
    if (!(CHANNELS as readonly string[]).includes(channel)) continue;
    if (category === '*') channels[channel] = value === '1';
    else (categories[category] ??= {})[channel] = value === '1';
  }
  return { channels, categories };
}

/** A tenant's id as a key part: hashed, so no tenant name appears in key names. */
export function tenantHash(tenant: string): string {
  return createHash('sha256')
    .update(JSON.stringify(['tenant', tenant]))
    .digest('hex')
    .slice(0, 32);
}

/** The hash tag of the tenants' consent settings (small, read through per-process caches). */
export const CONSENT_TAG = '{notify:consent}';

/** One tenant's categories (`c:<id>` → JSON) and its mark `optouts` (some recipient opted out). */
export function consentTenantKey(tenant: string): string {
  return `${CONSENT_TAG}:t:${tenantHash(tenant)}`;
}

/** The field of a category in the tenant's hash. */
export function categoryField(id: string): string {
  return `c:${id}`;
}

/** The tenant hash's field saying some recipient of the tenant has opt-outs recorded. */
export const OPT_OUTS_MARK = 'optouts';

/**
 * The stored profiles with one SMS number (a set of JSON [tenant, recipient hash]), keyed by the
 * number's addressHash: how an inbound STOP, which names only the number, finds its recipients.
 */
export function smsNumberIndexKey(phoneHash: string): string {
  return `${CONSENT_TAG}:p:${phoneHash}`;
}

/** A recipient's opt-outs: a hash of optOutField → '0' / '1', in the recipient's partition. */
export function optOutKey(tenantRecipientHash: string, partition = 0): string {
  return `${partitionTag(partition)}:o:${tenantRecipientHash}`;
}
