import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './events';

export const WEBHOOK_LIMITS = { urlLength: 2_048, descriptionLength: 500, deliveriesKept: 100 } as const;

/** `POST /v1/webhooks`' body; unknown fields refused. The URL's SSRF check is separate (async). */
export const webhookEndpointRequestSchema = z
  .object({
    url: z
      .string()
      .min(1)
      .max(WEBHOOK_LIMITS.urlLength)
      .refine((text) => URL.canParse(text), 'must be an absolute URL'),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES))
      .min(1)
      .max(WEBHOOK_EVENT_TYPES.length)
      .refine((list) => !Array.isArray(list) || new Set(list).size === list.length, 'must not repeat an event type'),
    description: z.string().max(WEBHOOK_LIMITS.descriptionLength).optional(),
  })
  .strict();
export type WebhookEndpointRequest = z.infer<typeof webhookEndpointRequestSchema>;

export const ENDPOINT_ID_PATTERN = /^ep_[0-9a-f]{24}$/;

/** What the tenant sees of an endpoint: never a secret. */
export interface WebhookEndpointView {
  id: string;
  url: string;
  events: WebhookEventType[];
  description?: string;
  createdAt: number;
  disabled: boolean;
  disabledReason?: string;
  disabledAt?: number;
  /** While a rotated-out secret still signs (the grace period), until when. */
  previousSecretExpiresAt?: number;
}

/** The endpoint with its secrets, for the delivery worker. */
export interface WebhookEndpoint extends WebhookEndpointView {
  tenant: string;
  secret: string;
  previousSecret?: string;
}

/** One delivery attempt, as `GET /v1/webhooks/:id/deliveries` lists it. */
export interface DeliveryRecord {
  eventId: string;
  type: string;
  attempt: number;
  /** success: a 2xx; failure: anything else (the error class says what). */
  result: 'success' | 'failure';
  statusCode?: number;
  latencyMs: number;
  at: number;
  errorClass?: string;
}

/** Standard Webhooks' secret form: `whsec_` + base64 of 24 random bytes. */
export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function toEndpointView(endpoint: WebhookEndpoint, now = Date.now()): WebhookEndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    ...(endpoint.description !== undefined ? { description: endpoint.description } : {}),
    createdAt: endpoint.createdAt,
    disabled: endpoint.disabled,
    ...(endpoint.disabledReason ? { disabledReason: endpoint.disabledReason } : {}),
    ...(endpoint.disabledAt ? { disabledAt: endpoint.disabledAt } : {}),
    ...(endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now ? { previousSecretExpiresAt: endpoint.previousSecretExpiresAt } : {}),
  };
}

/** The secrets that sign now: the current one, and the previous one during its grace period. */
export function signingSecrets(endpoint: WebhookEndpoint, now = Date.now()): string[] {
  const previous = endpoint.previousSecret && (endpoint.previousSecretExpiresAt ?? 0) > now ? [endpoint.previousSecret] : [];
  return [endpoint.secret, ...previous];
}
