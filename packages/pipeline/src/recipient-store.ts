import type { Redis } from 'ioredis';
import { CHANNELS, recipientHash, recipientKey, suppressionKey, type RecipientProfile } from '@notify/core';

/**
 * Stored recipient profiles (`PUT /v1/recipients/:id`), scoped by tenant. The key is a hash of
 * (tenant, recipient id): no PII in key names; the addresses live only in the value.
 */
export class RecipientStore {
  constructor(private readonly redis: Redis) {}

  /**
   * Stores the profile and lifts the recipient's channel suppressions in the same transaction:
   * new addresses deserve a new try (a suppression is a fact about the old address).
   */
  async put(tenant: string, recipientId: string, profile: RecipientProfile): Promise<boolean> {
    const hash = recipientHash(tenant, recipientId);
    const results = await this.redis
      .multi()
      .set(recipientKey(hash), JSON.stringify(profile), 'GET')
      .del(...CHANNELS.map((channel) => suppressionKey(hash, channel)))
      .exec();
    const [error, previous] = results?.[0] ?? [];
    if (error) throw error;
    return previous === null;
  }

  async get(tenant: string, recipientId: string): Promise<RecipientProfile | undefined> {
    const raw = await this.redis.get(recipientKey(recipientHash(tenant, recipientId)));
    return raw === null ? undefined : (JSON.parse(raw) as RecipientProfile);
  }

  async delete(tenant: string, recipientId: string): Promise<boolean> {
    return (await this.redis.del(recipientKey(recipientHash(tenant, recipientId)))) === 1;
  }
}
