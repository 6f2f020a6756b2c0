import type { Channel, LedgerSummary } from '@notify/core';

export type CallOutcome = 'delivered' | 'replayed' | 'transient' | 'permanent' | 'in-progress';

/**
 * What the simulated providers actually did, per idempotency key, across all channels: the
 * test's ground truth for "exactly one delivery per (event, recipient)".
 */
export class Ledger {
  private readonly deliveries = new Map<string, { channel: Channel; at: number }[]>();
  private readonly calls = new Map<Channel, number>();
  private readonly outcomes = new Map<Channel, Map<CallOutcome, number>>();

  recordCall(channel: Channel, outcome: CallOutcome): void {
    this.calls.set(channel, (this.calls.get(channel) ?? 0) + 1);
    const byOutcome = this.outcomes.get(channel) ?? new Map<CallOutcome, number>();
    byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + 1);
    this.outcomes.set(channel, byOutcome);
  }

  deliveredOn(key: string, channel: Channel): boolean {
    return (this.deliveries.get(key) ?? []).some((d) => d.channel === channel);
  }

  recordDelivery(key: string, channel: Channel): void {
    const list = this.deliveries.get(key) ?? [];
    list.push({ channel, at: Date.now() });
    this.deliveries.set(key, list);
  }

  entry(key: string): { channel: Channel; at: number }[] {
    return this.deliveries.get(key) ?? [];
  }

  summary(): LedgerSummary {
    let deliveries = 0;
    const duplicateKeys: string[] = [];
    for (const [key, list] of this.deliveries) {
      deliveries += list.length;
      if (list.length > 1) duplicateKeys.push(key);
    }
    const outcomes: Record<string, Record<string, number>> = {};
    for (const [channel, map] of this.outcomes) outcomes[channel] = Object.fromEntries(map);
    return { calls: Object.fromEntries(this.calls), outcomes, deliveredKeys: this.deliveries.size, deliveries, duplicateKeys };
  }

  reset(): void {
    this.deliveries.clear();
    this.calls.clear();
    this.outcomes.clear();
  }
}
