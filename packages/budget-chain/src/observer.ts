/** How one budgeted step ended. Bounded: these are metric label values. */
export type StepOutcomeKind = 'ok' | 'deadline_exceeded' | 'cancelled' | 'error';

export interface StepEvent {
  readonly step: string;
  readonly policy: string;
  readonly outcome: StepOutcomeKind;
  readonly durationMs: number;
}

/**
 * Hooks the chain calls as steps end; metrics implement it (see createBudgetMetrics), tests
 * record it. Hooks must not throw; a throwing hook is the observer's bug, not the call's.
 */
export interface BudgetObserver {
  onStep?(event: StepEvent): void;
  /** An in-flight call was told to stop (its request aborted) because its caller gave up. */
  onCancelSent?(step: string): void;
}
