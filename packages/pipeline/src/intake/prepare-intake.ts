import {
  NotifyError,
  addressHash,
  cascadeCandidates,
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
  validationError,
} from '@notify/core';
import type { IntakeArgs } from '../scripts';
import type { IntakeDeps, PreparedIntake } from './intake-types';
import { applyCategory } from './intake-category';
import { recipientAddresses } from './recipient-addresses';

/**
 * The router as a function (no extra queue hop): the cascade plan from the recipient's
 * preferences, its addresses and the open breakers, the first channel, and the record to write.
 */
export async function prepareIntake(
  deps: IntakeDeps,
  tenant: string,
  request: NotificationRequest,
  open: ReadonlySet<Channel>,
  fieldPrefix = '',
): Promise<PreparedIntake> {
  const now = (deps.now ?? Date.now)();
  const sendAt = sendAtMs(request, now, deps.config.scheduleMaxAheadSeconds ?? DEFAULT_SCHEDULE_MAX_AHEAD_SECONDS, fieldPrefix);
  const expiresAt = expiresAtOf(request, now, sendAt);
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
  // Suppressions and opt-outs are read by the intake script, in the record's slot: it starts on the first open candidate.
  const candidates = first.kind === 'send' ? cascadeCandidates(plan, [], deps.config.budget, unavailable) : [];
  const readOptOuts = job.category !== undefined && deps.consent !== undefined && (await deps.consent.tenant(tenant)).optOuts;
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
    ...(candidates.length > 0 ? { candidates } : {}),
    ...(readOptOuts ? { readOptOuts } : {}),
    ...(sendAt !== undefined ? { sendAt } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    ...(job.category !== undefined ? { category: job.category } : {}),
  };
  // Decided once here: the worker's quiet-hours stage reads the rule from the job, never a profile.
  const waitsQuietHours = request.priority === 'reminder' || request.respectQuietHours === true;
  const quiet = waitsQuietHours ? resolveQuietRule([request.recipient, profile, deps.tenantSettings?.(tenant)]) : undefined;
  if (quiet) args.quiet = quiet;
  return { request, args, job };
}

/** SCHEDULE_MAX_AHEAD's default: 30 days. */
export const DEFAULT_SCHEDULE_MAX_AHEAD_SECONDS = 30 * 86_400;

/** The request's `sendAt` in ms, refused (400 naming the field) when further ahead than the maximum. */
function sendAtMs(request: NotificationRequest, now: number, maxAheadSeconds: number, fieldPrefix: string): number | undefined {
  if (request.sendAt === undefined) return undefined;
  const at = Date.parse(request.sendAt);
  if (at - now > maxAheadSeconds * 1000) {
    const field = [fieldPrefix, 'sendAt'].filter(Boolean).join('.');
    throw validationError([{ field, reason: `must be at most ${maxAheadSeconds} s ahead (SCHEDULE_MAX_AHEAD)` }]);
  }
  return at;
}
