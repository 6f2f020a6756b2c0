import type { Registry } from 'prom-client';
import { gauge } from './metric-factories';

/**
 * What the api's backlog reading last saw (docs/backpressure.md): notifications past each
 * class's bound, and whether that class is being refused.
 */
export function createBackpressureMetrics(registry: Registry) {
  const overdue = gauge(
    registry,
    'notify_intake_overdue_notifications',
    'Backlog past the class bound at the api last reading: reminder, notifications of either class without progress for the backpressure wait; urgent, urgent notifications waiting three times as long for a worker to take up their first step.',
    ['class'],
  );
  const refusing = gauge(registry, 'notify_intake_backpressure', '1 while intake refuses new notifications of the class (503 BACKLOG_FULL), else 0.', [
    'class',
  ]);
  for (const c of ['reminder', 'urgent']) refusing.set({ class: c }, 0);
  return {
    observe(reading: { overdueReminder: number; overdueUrgent: number }, refuses: (priority: 'reminder' | 'urgent') => boolean): void {
      overdue.set({ class: 'reminder' }, reading.overdueReminder);
      overdue.set({ class: 'urgent' }, reading.overdueUrgent);
      refusing.set({ class: 'reminder' }, refuses('reminder') ? 1 : 0);
      refusing.set({ class: 'urgent' }, refuses('urgent') ? 1 : 0);
    },
  };
}
