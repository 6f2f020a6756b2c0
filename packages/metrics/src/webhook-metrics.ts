import { Counter, Histogram, type Registry } from 'prom-client';
import { CALL_DURATION_BUCKETS } from './buckets';

/** Tenant webhooks (packages/webhooks): deliveries and disabled endpoints. Labels bounded: outcome, error class. */
export function createWebhookMetrics(registry: Registry) {
  const registers = [registry];
  return {
    deliveries: new Counter({
      name: 'notify_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome (success, failure) and error class (none, http-5xx, timeout, ssrf-refused, ...).',
      labelNames: ['outcome', 'error_class'] as const,
      registers,
    }),
    deliveryDuration: new Histogram({
      name: 'notify_webhook_delivery_duration_seconds',
      help: 'Webhook delivery attempt duration (connect to the answer, capped body read) by outcome.',
      labelNames: ['outcome'] as const,
      buckets: CALL_DURATION_BUCKETS,
      registers,
    }),
    endpointsDisabled: new Counter({
      name: 'notify_webhook_endpoints_disabled_total',
      help: 'Webhook endpoints disabled after failing every delivery for WEBHOOK_DISABLE_AFTER_DAYS.',
      registers,
    }),
  };
}

export type WebhookMetrics = ReturnType<typeof createWebhookMetrics>;
