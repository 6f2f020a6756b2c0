import { NotifyError, isNotifyError, type NotificationRequest } from '@notify/core';
import type { PipelineMetrics } from '@notify/metrics';
import { isRedisUnavailable } from '../redis-unavailable';

/** Counts a refused request by its kind and turns any failure into the error the client is answered with. */
export function classifyIntakeError(metrics: PipelineMetrics, error: unknown, priority: NotificationRequest['priority'] | undefined): NotifyError {
  const labels = { priority: priority ?? 'unknown' };
  if (isNotifyError(error)) {
    const result =
      error.code === 'IDEMPOTENCY_CONFLICT'
        ? 'conflict'
        : error.code === 'VALIDATION_FAILED'
          ? 'invalid'
          : error.code === 'BACKLOG_FULL'
            ? 'backlog_full'
            : error.httpStatus < 500
              ? 'rejected'
              : 'error';
    metrics.intakeRequests.inc({ ...labels, result });
    return error;
  }
  metrics.intakeRequests.inc({ ...labels, result: 'error' });
  if (!isRedisUnavailable(error)) return new NotifyError('INTERNAL', 'unexpected intake failure', { cause: error });
  return new NotifyError(
    'DEPENDENCY_UNAVAILABLE',
    'the queue store (Redis) did not answer; retry with the same event id (idempotent: it is accepted at most once)',
    {
      cause: error,
    },
  );
}
