import type { Registry } from 'prom-client';
import { counter, histogram } from './metric-factories';
import { CALL_DURATION_BUCKETS } from './buckets';

/** Tenant webhooks (packages/webhooks): deliveries and disabled endpoints. Labels bounded: outcome, error class. */
export function createWebhookMetrics(registry: Registry) {
  return {
    deliveries: counter(
      registry,
      'notify_webhook_deliveries_total',
      'Webhook delivery attempts by outcome (success, failure) and error class (none, http-5xx, timeout, ssrf-refused, ...).',
      ['outcome', 'error_class'],
    ),
    deliveryDuration: histogram(
      registry,
      'notify_webhook_delivery_duration_seconds',
      'Webhook delivery attempt duration (connect to the answer, capped body read) by outcome.',
      ['outcome'],
      CALL_DURATION_BUCKETS,
    ),
    endpointsDisabled: counter(
      registry,
      'notify_webhook_endpoints_disabled_total',
      'Webhook endpoints disabled after failing every delivery for WEBHOOK_DISABLE_AFTER_DAYS.',
    ),
  };
}

export type WebhookMetrics = ReturnType<typeof createWebhookMetrics>;
