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

/**
 * Spent calls split into cascade sends and reconciliations. The sends measure the cascade's economy on
 * BI5/BI6 faults (the model gives 1.079 per notification); reconciliations re-ask a provider after an
 * unknown outcome (a timeout, or a job re-run after its lock lapsed on a starved machine), so their
 * number follows the machine's load, not the cascade.
 */
export function spentCalls(views: readonly NotificationView[]): { sends: number; reconciliations: number } {
  const spent = views.flatMap((v) => v.attempts).filter((a) => a.spent !== false);
  const sends = spent.filter((a) => a.kind === 'send').length;
  return { sends, reconciliations: spent.length - sends };
}
