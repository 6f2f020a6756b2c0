import {
  CHANNELS,
  partitionOfRecipient,
  recipientHash,
  recipientKey,
  suppressionIndexKey,
  suppressionIndexMember,
  suppressionKey,
  type RecipientProfile,
} from '@notify/core';
import type { RedisClient } from '@notify/runtime';

/**
 * Stored recipient profiles (`PUT /v1/recipients/:id`), scoped by tenant. The key is a hash of
 * (tenant, recipient id): no PII in key names; the addresses live only in the value. A
 * profile and its suppressions live in the recipient's partition (`partitions`: PARTITIONS).
 */
export class RecipientStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly partitions = 1,
  ) {}

  /**
   * Stores the profile and lifts the recipient's channel suppressions in the same transaction:
   * new addresses deserve a new try (a suppression is a fact about the old address), and their
   * entries in the tenant's suppression index.
   */
  async put(tenant: string, recipientId: string, profile: RecipientProfile): Promise<boolean> {
    const hash = recipientHash(tenant, recipientId);
    const p = partitionOfRecipient(hash, this.partitions);
    const results = await this.redis
      .multi()
      .set(recipientKey(hash, p), JSON.stringify(profile), 'GET')
      .del(...CHANNELS.map((channel) => suppressionKey(hash, channel, p)))
      .zrem(suppressionIndexKey(tenant, p), ...CHANNELS.map((channel) => suppressionIndexMember(hash, channel)))
      .exec();
    const [error, previous] = results?.[0] ?? [];
    if (error) throw error;
    return previous === null;
  }

  async get(tenant: string, recipientId: string): Promise<RecipientProfile | undefined> {
    const raw = await this.redis.get(this.key(tenant, recipientId));
    return raw === null ? undefined : (JSON.parse(raw) as RecipientProfile);
  }

  async delete(tenant: string, recipientId: string): Promise<boolean> {
    return (await this.redis.del(this.key(tenant, recipientId))) === 1;
  }

  private key(tenant: string, recipientId: string): string {
    const hash = recipientHash(tenant, recipientId);
    return recipientKey(hash, partitionOfRecipient(hash, this.partitions));
  }
}
