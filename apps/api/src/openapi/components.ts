import { z } from 'zod';
import {
  batchRequestSchema,
  categorySchema,
  notificationRequestSchema,
  optOutPreferencesSchema,
  recipientProfileSchema,
  suppressionRequestSchema,
} from '@notify/core';
import { webhookEndpointRequestSchema } from '@notify/webhooks';
import {
  acceptedResponseSchema,
  batchResponseSchema,
  canceledResponseSchema,
  eventCancelResultSchema,
  errorResponseSchema,
  healthSchema,
  notificationPageSchema,
  notificationViewSchema,
  readySchema,
  trackingErrorSchema,
  trackingResponseSchema,
  webhookDeliveryListSchema,
  webhookEndpointCreatedSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookRetrySchema,
  providerEventResultSchema,
} from './response-schemas';
import { suppressionPageSchema, suppressionSchema } from './suppression-schemas';
import { genericProviderEventSchema } from '../routes/provider-events/event-shapes';

/** Every schema the document names, by its component name. */
export const NAMED_SCHEMAS = {
  NotificationRequest: notificationRequestSchema,
  BatchRequest: batchRequestSchema,
  RecipientProfile: recipientProfileSchema,
  Accepted: acceptedResponseSchema,
  BatchResult: batchResponseSchema,
  NotificationView: notificationViewSchema,
  NotificationPage: notificationPageSchema,
  Canceled: canceledResponseSchema,
  EventCancelResult: eventCancelResultSchema,
  Recipient: recipientProfileSchema.extend({ id: z.string() }),
  Error: errorResponseSchema,
  TrackingResponse: trackingResponseSchema,
  TrackingError: trackingErrorSchema,
  Health: healthSchema,
  Ready: readySchema,
  WebhookEndpointRequest: webhookEndpointRequestSchema,
  WebhookEndpoint: webhookEndpointSchema,
  WebhookEndpointCreated: webhookEndpointCreatedSchema,
  WebhookEndpointList: webhookEndpointListSchema,
  WebhookDeliveryList: webhookDeliveryListSchema,
  WebhookRetry: webhookRetrySchema,
  ProviderEvent: genericProviderEventSchema,
  ProviderEventResult: providerEventResultSchema,
  Category: categorySchema,
  CategoryView: categorySchema.extend({ id: z.string() }),
  CategoryList: z.object({ categories: z.array(categorySchema.extend({ id: z.string() })) }),
  OptOutPreferences: optOutPreferencesSchema,
  Preferences: optOutPreferencesSchema.extend({ id: z.string() }),
  SuppressionRequest: suppressionRequestSchema,
  Suppression: suppressionSchema,
  SuppressionPage: suppressionPageSchema,
} as const;

export type SchemaName = keyof typeof NAMED_SCHEMAS;

/** Request examples for /docs' "Try it out"; a test parses each with its own schema. */
export const EXAMPLES: Partial<Record<SchemaName, unknown>> = {
  NotificationRequest: {
    eventId: 'order-42-shipped',
    priority: 'urgent',
    recipient: { id: 'user-7', addresses: { push: 'tok-7', sms: '+905551112233', email: 'u7@example.com' }, preferences: ['push', 'sms', 'email'] },
    content: { title: 'Kargonuz yolda', body: 'Siparişiniz kargoya verildi.' },
  },
  Category: { name: 'Campaigns', required: false, channels: ['email', 'push'] },
  OptOutPreferences: { channels: { sms: false }, categories: { campaigns: { email: false } } },
  SuppressionRequest: { recipientId: 'user-7', channel: 'email', reason: 'manual', ttlSeconds: 2_592_000 },
  RecipientProfile: {
    addresses: { sms: '+905551112233', email: 'u7@example.com' },
    preferences: ['sms', 'email'],
    timeZone: 'Europe/Istanbul',
    quietHours: { start: '22:00', end: '08:00' },
  },
  WebhookEndpointRequest: { url: 'https://hooks.example.com/notify', events: ['notification.delivered', 'notification.failed'], description: 'order updates' },
  ProviderEvent: { eventId: 'evt-9f2c', type: 'bounced', bounceType: 'hard', providerMessageId: '0100018c-ses-id', detail: 'smtp; 550 5.1.1 user unknown' },
};

/**
 * Field notes the zod schemas cannot carry without core knowing about the document: the
 * rules a client needs that are not in the JSON Schema keywords (idempotency, fallbacks).
 */
const FIELD_NOTES: Record<string, string> = {
  'NotificationRequest.eventId': 'With recipient.id, the idempotency key: the same pair is accepted once (per tenant).',
  'NotificationRequest.recipient':
    'Inline addresses, or only the id of a profile stored with PUT /v1/recipients/{id} (inline preferences override the stored ones).',
  'NotificationRequest.content':
    'SMS text is fitted to SMS_MAX_SEGMENTS parts (GSM-7 or UCS-2), push payloads to 3,993 bytes (one Web Push record), e-mail gets a one-line subject.',
  'NotificationRequest.sendAt':
    'When to send: RFC 3339 with an offset or Z (a local time without one is a 400). Omitted or past: now. At most SCHEDULE_MAX_AHEAD ahead (default 30 days; a 400 naming sendAt beyond). The status is `scheduled` until then, and it is never sent before it. Part of the payload: a repeat with another sendAt is a 422 (docs/scheduling.md).',
  'NotificationRequest.expiresAt':
    'RFC 3339 with an offset. Not delivered by then, it ends expired without another call; checked before every call (reconciliations too). After now (and after sendAt); not with ttlSeconds. Part of the payload (idempotency).',
  'NotificationRequest.ttlSeconds': 'Expires this many seconds after acceptance (1 to a year); instead of expiresAt. Part of the payload (idempotency).',
  'BatchRequest.notifications': 'Up to 1,000 notification requests, each judged like a single POST.',
  'RecipientProfile.addresses': 'At least one of push, sms, email.',
  'SuppressionRequest.ttlSeconds': 'How long it holds (1 s to 10 years); default PROVIDER_EVENT_SUPPRESSION_TTL_SECONDS (30 days).',
  'WebhookEndpointRequest.url':
    'http(s) only, at most 2,048 characters; a host that is or resolves to a private, loopback, link-local or metadata address is refused (400 naming url) unless allow-listed (WEBHOOK_ALLOWED_HOSTS).',
  'WebhookEndpointRequest.events': 'The event types to receive (attempt.failed only if listed); no repeats.',
  'RecipientProfile.preferences': 'Channel order, no repeats; channels not listed follow in the default order push, sms, email.',
  'RecipientProfile.timeZone':
    'An IANA time zone name (Europe/Berlin, America/New_York, UTC): the zone of quietHours; unknown names are refused (400 naming timeZone).',
  'RecipientProfile.quietHours':
    'A daily window of local time, HH:MM to HH:MM (start differs from end; 22:00 to 08:00 crosses midnight). Reminders, and urgent notifications sent with respectQuietHours, whose next call would start inside it wait until it ends (spread over QUIET_HOURS_SPREAD_SECONDS). docs/quiet-hours.md.',
  'NotificationRequest.respectQuietHours': "true: an urgent notification waits out the recipient's quiet hours too (a reminder always does).",
};

type JsonObject = Record<string, unknown>;

function addFieldNotes(schemas: Record<string, JsonObject>): void {
  for (const [path, note] of Object.entries(FIELD_NOTES)) {
    const [name, field] = path.split('.') as [string, string];
    const properties = schemas[name]?.properties as Record<string, JsonObject> | undefined;
    const property = properties?.[field];
    if (!property) throw new Error(`openapi: field note for ${path}, which the schema does not have`);
    property.description = note;
  }
}

/**
 * JSON Schema 2020-12 (OpenAPI 3.1's dialect) from the zod schemas, as request bodies are
 * parsed (`io: 'input'`). Refinements with no JSON Schema form (e.g. "no repeated channel")
 * are left out of the document, never guessed.
 */
export function componentSchemas(): Record<SchemaName, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(NAMED_SCHEMAS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  });
  const out: Record<string, JsonObject> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // Each component lives inside the document: no $schema or $id of its own.
    const rest: JsonObject = { ...schema };
    delete rest.$schema;
    delete rest.$id;
    const example = EXAMPLES[id as SchemaName];
    out[id] = example === undefined ? rest : { ...rest, examples: [example] };
  }
  addFieldNotes(out);
  return out;
}
