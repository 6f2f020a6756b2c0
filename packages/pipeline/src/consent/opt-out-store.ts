import {
  addressHash,
  smsNumberIndexKey,
  optOutField,
  optOutFields,
  optOutKey,
  optOutPreferencesOf,
  partitionOfRecipient,
  recipientHash,
  type Channel,
  type OptOutPreferences,
} from '@notify/core';
import type { RedisClient } from '@notify/runtime';
import type { ConsentSettings } from './consent-settings';

/** A change of one (category, channel) switch, for the webhook events. */
export interface OptOutChange {
  category: string;
  channel: Channel;
  optedOut: boolean;
}

/**
 * Recipients' opt-outs, beside their profiles (the recipient's partition). Every write that
 * records an opt-out also marks the tenant (ConsentSettings.markOptOuts) so steps read them.
 */
export class OptOutStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly settings: ConsentSettings,
    private readonly partitions = 1,
  ) {}

  recipientHash(tenant: string, recipientId: string): string {
    return recipientHash(tenant, recipientId);
  }

  key(rh: string): string {
    return optOutKey(rh, partitionOfRecipient(rh, this.partitions));
  }

  async get(tenant: string, recipientId: string): Promise<OptOutPreferences | undefined> {
    const fields = await this.redis.hgetall(this.key(recipientHash(tenant, recipientId)));
    return Object.keys(fields).length === 0 ? undefined : optOutPreferencesOf(fields);
  }

  /** Replaces the recipient's preferences; answers what changed (for the webhook events). */
  async put(tenant: string, recipientId: string, preferences: OptOutPreferences): Promise<OptOutChange[]> {
    const key = this.key(recipientHash(tenant, recipientId));
    const fields = optOutFields(preferences);
    if (Object.values(fields).includes('0')) await this.settings.markOptOuts(tenant);
    const multi = this.redis.multi().hgetall(key).del(key);
    if (Object.keys(fields).length > 0) multi.hset(key, fields);
    const [[error, before] = []] = (await multi.exec()) ?? [];
    if (error) throw error;
    return changes((before ?? {}) as Record<string, string>, fields);
  }

  /**
   * Records one opt-out (a one-click unsubscribe, an SMS STOP) by recipient hash; idempotent:
   * true only when it was not recorded already.
   */
  async optOut(tenant: string, rh: string, category: string, channel: Channel): Promise<boolean> {
    await this.settings.markOptOuts(tenant);
    const key = this.key(rh);
    const field = optOutField(category, channel);
    const [[error, previous] = []] = (await this.redis.multi().hget(key, field).hset(key, field, '0').exec()) ?? [];
    if (error) throw error;
    return previous !== '0';
  }

  /** Remembers that the stored profile (tenant, recipient) has this SMS number (PUT /v1/recipients/:id). */
  async indexSmsNumber(tenant: string, recipientId: string, phone: string): Promise<void> {
    await this.redis.sadd(smsNumberIndexKey(addressHash('sms', phone)), JSON.stringify([tenant, recipientHash(tenant, recipientId)]));
  }

  /**
   * An inbound STOP from `phone`: every stored profile with that number opts out of SMS for
   * every optional category (the global switch). Answers those that were not opted out already.
   */
  async stopSms(phone: string): Promise<{ tenant: string; rh: string }[]> {
    const members = await this.redis.smembers(smsNumberIndexKey(addressHash('sms', phone)));
    const changed: { tenant: string; rh: string }[] = [];
    for (const member of members) {
      const [tenant, rh] = JSON.parse(member) as [string, string];
      if (await this.optOut(tenant, rh, '*', 'sms')) changed.push({ tenant, rh });
    }
    return changed;
  }

  /** Whether the recipient opted out of `channel` for `category` (one read; the global switch or the category's). */
  async isOptedOut(rh: string, category: string, channel: Channel): Promise<boolean> {
    const [global, own] = await this.redis.hmget(this.key(rh), optOutField('*', channel), optOutField(category, channel));
    return global === '0' || own === '0';
  }
}

function changes(before: Record<string, string>, after: Record<string, string>): OptOutChange[] {
  const out: OptOutChange[] = [];
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[field] === '0';
    const now = after[field] === '0';
    if (was === now) continue;
    const at = field.lastIndexOf(':');
    out.push({ category: field.slice(0, at), channel: field.slice(at + 1) as Channel, optedOut: now });
  }
  return out;
}
