import type { Redis } from 'ioredis';
import { recipientHash, recipientKey, type RecipientProfile } from '@notify/core';

/**
 * Stored recipient profiles (`PUT /v1/recipients/:id`), scoped by tenant. The key is a hash of
 * (tenant, recipient id): no PII in key names; the addresses live only in the value.
 */
export class RecipientStore {
  constructor(private readonly redis: Redis) {}

  async put(tenant: string, recipientId: string, profile: RecipientProfile): Promise<boolean> {
    const created = await this.redis.set(recipientKey(recipientHash(tenant, recipientId)), JSON.stringify(profile), 'GET');
    return created === null;
  }

  async get(tenant: string, recipientId: string): Promise<RecipientProfile | undefined> {
    const raw = await this.redis.get(recipientKey(recipientHash(tenant, recipientId)));
    return raw === null ? undefined : (JSON.parse(raw) as RecipientProfile);
  }

  async delete(tenant: string, recipientId: string): Promise<boolean> {
    return (await this.redis.del(recipientKey(recipientHash(tenant, recipientId)))) === 1;
  }
}
