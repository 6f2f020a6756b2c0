import {
  NotifyError,
  addressHash,
  expiresAtOf,
  nextCascadeStep,
  notificationId,
  payloadFingerprint,
  planCascade,
  recipientHash,
  resolveQuietRule,
  type Channel,
  type NotificationRequest,
  type SkipReason,
} from '@notify/core';
import type { IntakeArgs } from '../scripts';
import type { IntakeDeps, PreparedIntake } from './intake-types';
import { applyCategory } from './intake-category';
import { recipientAddresses } from './recipient-addresses';

/**
 * The router as a function (no extra queue hop): the cascade plan from the recipient's
 * preferences, its addresses and the open breakers, the first channel, and the record to write.
 */
export async function prepareIntake(deps: IntakeDeps, tenant: string, request: NotificationRequest, open: ReadonlySet<Channel>): Promise<PreparedIntake> {
  const now = (deps.now ?? Date.now)();
  const expiresAt = expiresAtOf(request, now);
  const { addresses, preferences, profile } = await recipientAddresses(deps, tenant, request);
  const planned = planCascade(preferences, addresses);
  if (planned.length === 0) {
    throw new NotifyError('NO_DELIVERABLE_CHANNEL', 'the recipient has no address on any channel (push, sms, email)', {
      details: [{ field: 'recipient.addresses', reason: 'must hold at least one of push, sms, email' }],
    });
  }
  const { plan, job } = await applyCategory(deps, tenant, request, planned);
  const unavailable = (c: Channel): SkipReason | undefined => (open.has(c) ? 'breaker-open' : undefined);
  const first = nextCascadeStep(plan, [], deps.config.budget, unavailable);
  const firstChannel = first.kind === 'send' ? first.channel : (plan[0] as Channel);
  const skips = first.kind === 'send' ? first.skipped.map((s) => ({ ...s, at: now })) : [];
  for (const s of skips) deps.metrics.skips.inc({ channel: s.channel, reason: s.reason });
  const args: IntakeArgs = {
    id: notificationId(tenant, request.eventId, request.recipient.id),
    fingerprint: payloadFingerprint(request),
    tenant,
    eventId: request.eventId,
    recipientId: request.recipient.id,
    rh: recipientHash(tenant, request.recipient.id),
    priority: request.priority,
    plan,
    firstChannel,
    content: request.content,
    addresses,
    addressHashes: Object.fromEntries(plan.map((c) => [c, addressHash(c, addresses[c] as string)])),
    now,
    recordTtlSeconds: deps.config.recordTtlSeconds,
    idempotencyWindowSeconds: deps.config.idempotencyWindowSeconds,
    skips,
    ...(expiresAt !== undefined ? { expiresAt } : {}),
  };
  // Decided once here: the worker's quiet-hours stage reads the rule from the job, never a profile.
  const waitsQuietHours = request.priority === 'reminder' || request.respectQuietHours === true;
  const quiet = waitsQuietHours ? resolveQuietRule([request.recipient, profile, deps.tenantSettings?.(tenant)]) : undefined;
  if (quiet) args.quiet = quiet;
  return { request, args, job };
}
