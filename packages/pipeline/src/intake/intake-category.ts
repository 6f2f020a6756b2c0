import { NotifyError, type Channel, type NotificationRequest } from '@notify/core';
import type { StepJobData } from '../job-data';
import type { IntakeDeps } from './intake-types';

/**
 * The notification's category (none: the tenant's default): an unknown one is a 400 naming
 * `category`; a category's channels narrow the plan; a non-required one rides along in the
 * step jobs, where the opted-out stage and the e-mail's unsubscribe link use it. Read from the
 * per-process settings cache: no Redis call on the intake path while the entry is fresh.
 */
export async function applyCategory(
  deps: Pick<IntakeDeps, 'consent'>,
  tenant: string,
  request: NotificationRequest,
  plan: Channel[],
): Promise<{ plan: Channel[]; job: Pick<StepJobData, 'category' | 'tenant'> }> {
  if (!deps.consent) return { plan, job: {} };
  const found = await deps.consent.category(tenant, request.category);
  if (!found) {
    throw new NotifyError('VALIDATION_FAILED', `invalid request: category: no category '${request.category}' for this tenant`, {
      details: [{ field: 'category', reason: `no category '${request.category}' for this tenant (PUT /v1/categories/${request.category} first)` }],
    });
  }
  const allowed = found.category.channels;
  const narrowed = allowed ? plan.filter((c) => allowed.includes(c)) : plan;
  if (narrowed.length === 0) {
    throw new NotifyError('NO_DELIVERABLE_CHANNEL', `the recipient has no address on the channels of category '${found.id}'`, {
      details: [{ field: 'category', reason: `category '${found.id}' allows only ${allowed?.join(', ')}` }],
    });
  }
  return { plan: narrowed, job: found.category.required ? {} : { category: found.id, tenant } };
}
