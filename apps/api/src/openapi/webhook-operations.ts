import { ID_PARAM_ERRORS, JSON_BODY_ERRORS, type Operation } from './operation';

/** A tenant's webhook endpoints and their deliveries (docs/webhooks.md). */
export const WEBHOOK_OPERATIONS: readonly Operation[] = [
  {
    method: 'post',
    path: '/v1/webhooks',
    tag: 'webhooks',
    auth: 'tenant',
    body: 'WebhookEndpointRequest',
    summary: 'Register a webhook endpoint',
    description:
      'Answers the signing secret (Standard Webhooks `whsec_<base64>`) once. A URL that is not http(s), carries credentials, or whose host is or resolves to a ' +
      'private, loopback, link-local or metadata address (unless WEBHOOK_ALLOWED_HOSTS allows it) is a 400 naming `url`, and so is one more endpoint than ' +
      'WEBHOOK_MAX_ENDPOINTS. See docs/webhooks.md.',
    ok: { 201: { description: 'Registered.', schema: 'WebhookEndpointCreated', headers: { Location: '/v1/webhooks/{id}' } } },
    errors: [...JSON_BODY_ERRORS, 'INTERNAL'],
  },
  {
    method: 'get',
    path: '/v1/webhooks',
    tag: 'webhooks',
    auth: 'tenant',
    summary: "This tenant's webhook endpoints (no secrets)",
    ok: { 200: { description: 'Oldest first.', schema: 'WebhookEndpointList' } },
    errors: ['INTERNAL'],
  },
  {
    method: 'get',
    path: '/v1/webhooks/{id}',
    tag: 'webhooks',
    auth: 'tenant',
    summary: 'One webhook endpoint (no secret)',
    description: "A disabled endpoint says so (`disabled`, `disabledReason`). Unknown or another tenant's: 404.",
    ok: { 200: { description: 'The endpoint.', schema: 'WebhookEndpoint' } },
    errors: ID_PARAM_ERRORS,
  },
  {
    method: 'delete',
    path: '/v1/webhooks/{id}',
    tag: 'webhooks',
    auth: 'tenant',
    summary: 'Delete a webhook endpoint',
    description: 'Deliveries still queued for it are dropped.',
    ok: { 204: { description: 'Deleted.' } },
    errors: ID_PARAM_ERRORS,
  },
  {
    method: 'post',
    path: '/v1/webhooks/{id}/rotate-secret',
    tag: 'webhooks',
    auth: 'tenant',
    summary: 'Rotate the signing secret',
    description:
      'Answers the new secret once. For 24 h both the new and the previous secret sign every delivery (two `v1,` signatures in `webhook-signature`), so receivers can switch.',
    ok: { 200: { description: 'The endpoint with its new secret.', schema: 'WebhookEndpointCreated' } },
    errors: ID_PARAM_ERRORS,
  },
  {
    method: 'get',
    path: '/v1/webhooks/{id}/deliveries',
    tag: 'webhooks',
    auth: 'tenant',
    summary: 'Recent delivery attempts of one endpoint',
    ok: { 200: { description: 'Newest first: event, status code, latency, time, error class.', schema: 'WebhookDeliveryList' } },
    errors: ID_PARAM_ERRORS,
  },
  {
    method: 'post',
    path: '/v1/webhooks/{id}/deliveries/{eventId}/retry',
    tag: 'webhooks',
    auth: 'tenant',
    summary: 'Send one event to this endpoint again, now',
    description: 'Found while its delivery job is kept: a week after it failed for good, a day after it was delivered; otherwise 404.',
    ok: { 202: { description: 'On its way.', schema: 'WebhookRetry' } },
    errors: ID_PARAM_ERRORS,
  },
];
