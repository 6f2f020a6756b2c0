import type { NotificationRequest } from '@notify/core';
import { TenantLimitError } from '../tenant-limits/tenant-limit-error';
import type { LimitTake } from '../tenant-limits/tenant-limiter';
import { classifyIntakeError } from './intake-errors';
import type { BacklogFullError } from '../backpressure/intake-backlog';
import type { BatchItemResult, IntakeDeps, IntakeResult } from './intake-types';

export interface ParsedItem {
  index: number;
  request: NotificationRequest;
}

/**
 * Refused while the lanes are behind (docs/backpressure.md): work due now, not a `sendAt`
 * ahead (it adds nothing to the lanes until it is due).
 */
function backlogRefusal(deps: IntakeDeps, tenant: string, request: NotificationRequest): BacklogFullError | undefined {
  if (!deps.backlog) return undefined;
  if (request.sendAt !== undefined && Date.parse(request.sendAt) > (deps.now ?? Date.now)()) return undefined;
  return deps.backlog.refusal(request.priority, tenant);
}

/**
 * One notification before it is prepared: refused while the lanes are behind, admitted by the tenant's limits (or it has none), a
 * repeat of one accepted before (answered as the duplicate it is, never refused), or refused.
 */
export async function admitOne(deps: IntakeDeps, tenant: string, request: NotificationRequest): Promise<{ take?: LimitTake; earlier?: IntakeResult }> {
  const overloaded = backlogRefusal(deps, tenant, request);
  if (overloaded) {
    deps.tenantMetrics?.refused(tenant, 'backlog', 1);
    throw overloaded;
  }
  const take = await deps.limiter?.take(tenant, 1);
  if (!take || take.admitted === 1) return take ? { take } : {};
  const earlier = await deps.limiter?.acceptedBefore(tenant, request);
  if (earlier) return { take, earlier: { kind: 'duplicate', ...earlier } };
  deps.tenantMetrics?.refused(tenant, take.refusal ?? 'rate', 1);
  throw new TenantLimitError(take.refusal ?? 'rate', take.state);
}

/**
 * A batch's valid items: those of a class the backlog refuses are answered 503 each (before the
 * limits, so they spend none of the tenant's rate); the others take the limits at once: the
 * first `admitted` (request order) go on; each of the rest is answered here, as a duplicate when
 * it repeats one accepted before, else refused (429 RATE_LIMITED or QUOTA_EXCEEDED).
 */
export async function admitBatch(
  deps: IntakeDeps,
  tenant: string,
  offered: readonly ParsedItem[],
): Promise<{ take?: LimitTake; admitted: readonly ParsedItem[]; answered: BatchItemResult[]; retryAfterSeconds?: number }> {
  const overloaded: BatchItemResult[] = [];
  let retryAfterSeconds: number | undefined;
  const items = offered.filter(({ index, request }) => {
    const refusal = backlogRefusal(deps, tenant, request);
    if (!refusal) return true;
    deps.tenantMetrics?.refused(tenant, 'backlog', 1);
    retryAfterSeconds = Math.max(retryAfterSeconds ?? 0, refusal.retryAfterSeconds);
    const error = classifyIntakeError(deps.metrics, refusal, request.priority);
    overloaded.push({ index, httpStatus: error.httpStatus, error: { code: error.code, message: error.message } });
    return false;
  });
  const backlog = { answered: overloaded, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
  const admitted = await admitByLimits(deps, tenant, items);
  return { ...admitted, ...backlog, answered: [...overloaded, ...admitted.answered] };
}

async function admitByLimits(
  deps: IntakeDeps,
  tenant: string,
  items: readonly ParsedItem[],
): Promise<{ take?: LimitTake; admitted: readonly ParsedItem[]; answered: BatchItemResult[] }> {
  const take = items.length > 0 ? await deps.limiter?.take(tenant, items.length) : undefined;
  if (!take || take.admitted === items.length) return { ...(take ? { take } : {}), admitted: items, answered: [] };
  const refusal = new TenantLimitError(take.refusal ?? 'rate', take.state);
  const answered = await Promise.all(
    items.slice(take.admitted).map(async ({ index, request }): Promise<BatchItemResult> => {
      const earlier = await deps.limiter?.acceptedBefore(tenant, request).catch(() => undefined);
      if (earlier) {
        deps.metrics.intakeRequests.inc({ result: 'duplicate', priority: request.priority });
        return { index, httpStatus: 200, id: earlier.id, status: earlier.status, duplicate: true };
      }
      deps.tenantMetrics?.refused(tenant, refusal.refusal, 1);
      const error = classifyIntakeError(deps.metrics, refusal, request.priority);
      return { index, httpStatus: error.httpStatus, error: { code: error.code, message: error.message } };
    }),
  );
  return { take, admitted: items.slice(0, take.admitted), answered };
}
