import {
  partitionOfRecipient,
  recipientHash,
  suppressionIndexKey,
  suppressionIndexMember,
  suppressionKey,
  type Channel,
  type SuppressionReason,
  type SuppressionValue,
} from '@notify/core';
import type { RedisClient } from '@notify/runtime';
import { listSuppressions, type SuppressionFilter, type SuppressionPage, type SuppressionView } from './suppression-list';

/**
 * A tenant's suppressions (docs/preferences.md, "Suppressions"): each is the (recipient,
 * channel) key the step reads before a call, holding its reason and time, and one entry in the
 * tenant's index of the recipient's partition (score: its expiry). Both change in one
 * transaction on that partition's slot, as the worker's scripts change them in one step.
 */
export class SuppressionStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly partitions = 1,
  ) {}

  /** Suppresses (or again, with a new reason and expiry) one recipient's channel; `created`: it was not suppressed. */
  async add(
    tenant: string,
    recipientId: string,
    channel: Channel,
    reason: SuppressionReason,
    ttlSeconds: number,
    now = Date.now(),
  ): Promise<{ created: boolean; suppression: SuppressionView }> {
    const rh = recipientHash(tenant, recipientId);
    const p = partitionOfRecipient(rh, this.partitions);
    const value: SuppressionValue = { reason, at: now, recipientId };
    const expiresAt = now + ttlSeconds * 1000;
    const results = await this.redis
      .multi()
      .set(suppressionKey(rh, channel, p), JSON.stringify(value), 'EX', ttlSeconds, 'GET')
      .zadd(suppressionIndexKey(tenant, p), expiresAt, suppressionIndexMember(rh, channel))
      .exec();
    const [error, previous] = results?.[0] ?? [];
    if (error) throw error;
    return { created: previous === null, suppression: { recipientId, recipientHash: rh, channel, reason, suppressedAt: now, expiresAt } };
  }

  /** Lifts one recipient's channel before it expires: false when it was not suppressed. */
  async lift(tenant: string, recipientId: string, channel: Channel): Promise<boolean> {
    const rh = recipientHash(tenant, recipientId);
    const p = partitionOfRecipient(rh, this.partitions);
    const results = await this.redis
      .multi()
      .del(suppressionKey(rh, channel, p))
      .zrem(suppressionIndexKey(tenant, p), suppressionIndexMember(rh, channel))
      .exec();
    const [error, removed] = results?.[0] ?? [];
    if (error) throw error;
    return removed === 1;
  }

  /** One page of the tenant's suppressions, partition by partition, soonest expiry first in each. */
  list(tenant: string, filter: SuppressionFilter, now = Date.now()): Promise<SuppressionPage> {
    return listSuppressions(this.redis, this.partitions, tenant, filter, now);
  }
}
