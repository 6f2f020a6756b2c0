import type { NotificationView } from '@notify/core';

/** A terminal view's attempt history is complete: every attempt finished, in order, and the end agrees with the status. */
export function expectCompleteHistory(view: NotificationView): void {
  expect(view.attempts.length).toBeGreaterThanOrEqual(1);
  expect(view.attempts.filter((a) => a.spent !== false).length).toBeLessThanOrEqual(3);
  for (const attempt of view.attempts) {
    expect(attempt.outcome).toBeDefined();
    expect(attempt.startedAt).toBeGreaterThanOrEqual(view.acceptedAt);
    expect(attempt.finishedAt).toBeGreaterThanOrEqual(attempt.startedAt);
  }
  if (view.status === 'delivered') {
    expect(view.attempts.at(-1)).toMatchObject({ outcome: 'delivered', channel: view.deliveredChannel });
    expect(view.latencyMs).toBeGreaterThanOrEqual(0);
  } else {
    expect(view.failureReason).toBeTruthy();
  }
}
