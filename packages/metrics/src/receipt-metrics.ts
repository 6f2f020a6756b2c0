import { Counter, type Registry } from 'prom-client';

/**
 * Provider events in (docs/provider-events.md): receipts, bounces and complaints applied to
 * notifications. Labels bounded: kind (the receipt kinds), channel, result, and the configured
 * provider names.
 */
export function createReceiptMetrics(registry: Registry) {
  const registers = [registry];
  return {
    receipts: new Counter({
      name: 'notify_receipts_total',
      help: 'Provider receipts applied to a notification, by kind (delivered, undeliverable, expired, bounced, complained) and channel.',
      labelNames: ['kind', 'channel'] as const,
      registers,
    }),
    events: new Counter({
      name: 'notify_provider_events_total',
      help: 'Provider events received, by provider and result (applied, duplicate, unmatched, stale).',
      labelNames: ['provider', 'result'] as const,
      registers,
    }),
  };
}

export type ReceiptMetrics = ReturnType<typeof createReceiptMetrics>;
