import type { Registry } from 'prom-client';
import { counter } from './metric-factories';

/**
 * Provider events in (docs/provider-events.md): receipts, bounces and complaints applied to
 * notifications. Labels bounded: kind (the receipt kinds), channel, result, and the configured
 * provider names.
 */
export function createReceiptMetrics(registry: Registry) {
  return {
    receipts: counter(
      registry,
      'notify_receipts_total',
      'Provider receipts applied to a notification, by kind (delivered, undeliverable, expired, bounced, complained) and channel.',
      ['kind', 'channel'],
    ),
    events: counter(registry, 'notify_provider_events_total', 'Provider events received, by provider and result (applied, duplicate, unmatched, stale).', [
      'provider',
      'result',
    ]),
  };
}

export type ReceiptMetrics = ReturnType<typeof createReceiptMetrics>;
