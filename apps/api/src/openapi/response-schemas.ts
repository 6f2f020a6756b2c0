import { z } from 'zod';
import { CHANNELS, RECORDED_OUTCOMES, ERROR_CATALOG, NOTIFICATION_STATUSES, PRIORITIES, RECEIPT_KINDS, SKIP_REASONS, type ErrorCode } from '@notify/core';
import { BUDGET_ERROR_CATALOG, type BudgetErrorCode } from '@notify/budget-chain';
import { ENDPOINT_ID_PATTERN, WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS } from '@notify/webhooks';
import { deliveryStatusSchema, measurementSchema, tariffSchema } from '../tracking/records';

/**
 * What the api answers, as zod schemas, for the OpenAPI document only (the request schemas
 * are core's, the ones the api validates with). Enums come from core's constants and the
 * error catalogs, so a new status, outcome or error code reaches the document by itself.
 * Objects are strict (`additionalProperties: false`): test/ops/openapi-responses.test.ts
 * parses the platform's real answers with them, so a field added to an answer and not here
 * fails a test instead of going undocumented.
 */
const channel = z.enum(CHANNELS);
const status = z.enum(NOTIFICATION_STATUSES);
const errorCodes = Object.keys(ERROR_CATALOG) as [ErrorCode, ...ErrorCode[]];
const budgetErrorCodes = Object.keys(BUDGET_ERROR_CATALOG) as [BudgetErrorCode, ...BudgetErrorCode[]];

const fieldIssue = z.strictObject({ field: z.string(), reason: z.string() });

export const errorResponseSchema = z.strictObject({
  error: z.strictObject({
    code: z.enum(errorCodes).describe('A code of the error catalog (README, "Errors").'),
    message: z.string(),
    details: z.array(fieldIssue).optional().describe('One entry per invalid field (VALIDATION_FAILED).'),
  }),
});

export const acceptedResponseSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .describe('sha256(tenant, eventId, recipient id), 128 bits in hex.'),
  status,
  duplicate: z.boolean().describe('true: the same (event id, recipient id) was accepted before with the same payload; nothing is sent again.'),
});

export const batchResponseSchema = z.strictObject({
  accepted: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.number().int(),
  results: z
    .array(
      z.strictObject({
        index: z.number().int(),
        httpStatus: z.number().int().describe('What a single POST of this item would have answered (202, 200 or 4xx).'),
        id: z.string().optional(),
        status: status.optional(),
        duplicate: z.boolean().optional(),
        error: z.strictObject({ code: z.enum(errorCodes), message: z.string(), details: z.array(fieldIssue).optional() }).optional(),
      }),
    )
    .describe('In request order.'),
});

const attemptSchema = z.strictObject({
  step: z.number().int(),
  channel,
  provider: z.string().optional().describe('The provider that made the call (PROVIDERS_FILE name; the default simulator is named after its channel).'),
  kind: z.enum(['send', 'reconcile']).describe('reconcile re-sends with the same idempotency key after an unknown outcome.'),
  startedAt: z.number().describe('Unix ms.'),
  finishedAt: z.number().optional(),
  durationMs: z.number().optional(),
  outcome: z
    .enum(RECORDED_OUTCOMES)
    .optional()
    .describe('Absent while the call is in flight; processing-error: the message could not be rendered for the channel (nothing was called).'),
  spent: z.boolean().optional().describe('false when the step spent none of the budget (the request never left, or a processing error).'),
  errorClass: z.string().optional(),
  message: z.string().optional(),
  providerMessageId: z.string().optional().describe("The provider's id of the message (provider events find the notification by it)."),
  receipt: z
    .enum(RECEIPT_KINDS)
    .optional()
    .describe('What the provider reported later (newest): a receipt, a bounce, a complaint. See docs/provider-events.md.'),
  receiptAt: z.number().optional().describe('Unix ms, as the provider says.'),
  receiptDetail: z.string().optional(),
  receipts: z
    .array(
      z.strictObject({
        kind: z.enum(RECEIPT_KINDS),
        at: z.number(),
        detail: z.string().optional(),
        bounceType: z.enum(['hard', 'soft']).optional(),
      }),
    )
    .optional()
    .describe('Every receipt of this message, in arrival order.'),
});

export const notificationViewSchema = z
  .strictObject({
    id: z.string(),
    eventId: z.string(),
    recipientId: z.string(),
    priority: z.enum(PRIORITIES),
    status,
    plan: z.array(channel).describe('The cascade order planned at intake.'),
    deliveredChannel: channel.optional(),
    acceptedAt: z.number(),
    sendAt: z.number().optional().describe('When it was scheduled to be sent (ms since the epoch); only for a notification accepted with a sendAt.'),
    releasedAt: z.number().optional().describe('When it left `scheduled` for its lane (ms since the epoch; at or after sendAt, by Redis clock).'),
    deliveredAt: z.number().optional(),
    finishedAt: z.number().optional(),
    latencyMs: z.number().optional(),
    failureReason: z
      .string()
      .optional()
      .describe(
        'failed: budget-exhausted, all-channels-permanent, no channel available before the maximum age, or a processing error; unconfirmed: unknown-outcome-budget-exhausted or unknown-outcome-unsettled-before-maximum-age; canceled and expired: why it ended.',
      ),
    expiresAt: z.number().optional().describe('Unix ms: from expiresAt or ttlSeconds; no call opens after it (it ends expired).'),
    attempts: z.array(attemptSchema),
    skips: z.array(z.strictObject({ channel, reason: z.enum(SKIP_REASONS), at: z.number() })).describe('Channels passed over without spending budget.'),
    waits: z
      .array(
        z.strictObject({
          reason: z.string().describe('`quiet-hours`'),
          at: z.number(),
          until: z.number().describe('When the step may start (ms since the epoch).'),
        }),
      )
      .optional()
      .describe(
        "Steps held back before they started (the recipient's quiet hours), the newest few, oldest first; while the latest is ahead the status is retry-scheduled.",
      ),
  })
  .describe('Addresses and content are never returned.');

export const canceledResponseSchema = z
  .strictObject({ id: z.string(), status: z.literal('canceled') })
  .describe('Canceled (again: a repeated cancel answers the same): no provider is called for it any more.');

export const eventCancelResultSchema = z.strictObject({
  eventId: z.string(),
  canceled: z.number().int().describe('Now canceled (or canceled before).'),
  notCancelable: z.number().int().describe('Not cancelable by their state: a call in flight or unsettled (sending), or ended.'),
  notFound: z.number().int().describe('In the event index but gone from Redis (their record expired).'),
  notCancelableByState: z.record(z.string(), z.number().int()).describe('The not cancelable ones by state (sending, delivered, ...).'),
});

export const notificationPageSchema = z.strictObject({
  items: z.array(notificationViewSchema).describe('Newest first by acceptance time.'),
  nextCursor: z.string().optional().describe('Pass as `cursor` for the next page; absent on the last page.'),
});

export const trackingResponseSchema = z.strictObject({
  shipmentId: z.string(),
  delivery: deliveryStatusSchema,
  tariff: tariffSchema,
  measurement: measurementSchema,
  fee: z.strictObject({ currency: z.string(), amountMinor: z.number().int(), chargeableGrams: z.number().int() }),
  budget: z
    .strictObject({
      policy: z.string(),
      budgetMs: z.number(),
      gatewayShareMs: z.number(),
      branchBudgetMs: z.number(),
      shares: z.record(z.string(), z.number()),
      elapsedMs: z.number(),
      steps: z.array(z.strictObject({ step: z.string(), outcome: z.string(), called: z.boolean(), timeoutMs: z.number(), elapsedMs: z.number() })),
    })
    .describe('How the 200 ms budget (K01) was split and spent.'),
});

export const trackingErrorSchema = z.strictObject({
  error: z.strictObject({
    code: z.enum([...budgetErrorCodes, 'VALIDATION_FAILED', 'INTERNAL']),
    step: z.string().optional().describe('The step that ran out of time or failed.'),
    header: z.string().optional().describe('The malformed deadline header (INVALID_DEADLINE_HEADER).'),
    reason: z.string().optional().describe('Why the query was shed before any work (OVERLOADED).'),
    message: z.string(),
    upstreamStatus: z.number().int().optional(),
    details: z.array(fieldIssue).optional(),
  }),
  budget: z.unknown().optional(),
});

export const healthSchema = z.strictObject({ status: z.literal('ok') });
export const readySchema = z.strictObject({ status: z.enum(['ready', 'draining', 'warming-up', 'not-ready']), redis: z.string().optional() });

const webhookEventTypes = z.enum(WEBHOOK_EVENT_TYPES);

export const webhookEndpointSchema = z.strictObject({
  id: z.string().regex(ENDPOINT_ID_PATTERN),
  url: z.string(),
  events: z.array(webhookEventTypes),
  description: z.string().optional(),
  createdAt: z.number().describe('Unix ms.'),
  disabled: z.boolean().describe('true: no more deliveries (every delivery failed for WEBHOOK_DISABLE_AFTER_DAYS); register the endpoint again to resume.'),
  disabledReason: z.string().optional(),
  disabledAt: z.number().optional().describe('Unix ms.'),
  previousSecretExpiresAt: z.number().optional().describe('After a rotation: until when (Unix ms) the previous secret still signs too.'),
});

export const webhookEndpointCreatedSchema = webhookEndpointSchema.extend({
  secret: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=]+$/)
    .describe('The signing secret (Standard Webhooks `whsec_<base64>`): shown here only, never again.'),
});

export const webhookEndpointListSchema = z.strictObject({ items: z.array(webhookEndpointSchema) });

export const webhookDeliveryListSchema = z.strictObject({
  items: z
    .array(
      z.strictObject({
        eventId: z.string(),
        type: webhookEventTypes,
        attempt: z.number().int().describe('1 for the first call of this event to this endpoint.'),
        result: z.enum(['success', 'failure']),
        statusCode: z.number().int().optional().describe("The receiver's HTTP status, when it answered."),
        latencyMs: z.number(),
        at: z.number().describe('Unix ms.'),
        errorClass: z.string().optional().describe('http-4xx, http-5xx, redirect, timeout, connection-refused, dns, ssrf-refused, network.'),
      }),
    )
    .describe(`Newest first, at most ${WEBHOOK_LIMITS.deliveriesKept}.`),
});

export const webhookRetrySchema = z.strictObject({
  endpointId: z.string(),
  eventId: z.string(),
  previousState: z
    .string()
    .describe('The delivery job before the retry: failed (retried), delayed (sent now), completed (sent again), waiting or active (already on its way).'),
});

/** POST /v1/providers/{provider}/events (docs/provider-events.md). */
export const providerEventResultSchema = z.strictObject({
  status: z
    .enum(['applied', 'duplicate', 'unmatched', 'refused', 'ignored'])
    .describe(
      'applied: recorded (and settled what it settles); duplicate: this event id was applied to this notification before; unmatched (202): no notification this provider sent has that message id; refused (202): the message id is on an attempt another provider made; ignored: not a final event.',
    ),
  reason: z.literal('provider mismatch').optional().describe('Why it was refused (refused only).'),
  notificationId: z.string().optional(),
  notificationStatus: status.optional().describe('The notification status after the event (applied only).'),
});
