/**
 * @notify/budget-chain: deadline budgets split across a call chain, propagated as relative
 * remaining time, with cancellation linked by hand. The public API is this file only.
 */
export { monotonicClock, systemTimer, MAX_TIMER_DELAY_MS, type Clock, type Timer, type TimerHandle } from './clock';
export { ManualTime } from './manual-time';
export { Deadline, createDeadline, type DeadlineOptions } from './deadline';
export * from './errors';
export {
  SPLIT_POLICY_NAMES,
  createSplitPolicy,
  equalPolicy,
  greedyPolicy,
  isSplitPolicyName,
  latencyTableFromSamples,
  percentile,
  tailAwarePolicy,
  weightedPolicy,
  type LatencyTable,
  type SplitPolicy,
  type SplitPolicyName,
  type SplitPolicyParams,
} from './split-policy';
export {
  DEADLINE_HEADER,
  GRPC_TIMEOUT_HEADER,
  deadlineHeaders,
  formatDeadlineHeader,
  parseGrpcTimeout,
  parseTimeoutMs,
  readPropagatedTimeout,
  type HeaderBag,
} from './header';
export type { BudgetObserver, StepEvent, StepOutcomeKind } from './observer';
export { classify, runStep, type RunStepOptions, type StepContext, type StepFn, type StepOutcome } from './run-step';
export { runSequence, type RunSequenceOptions, type SequenceResult, type SequenceStep } from './run-sequence';
export { budgetedGetJson } from './http-client';
export type { BudgetedGetOptions } from './budgeted-get';
export { createKeepAliveAgent, type KeepAliveAgentOptions } from './keep-alive-agent';
export { deadlineMiddleware, requestDeadline, type DeadlineMiddlewareOptions } from './middleware';
export { AbandonmentWatch } from './abandoned-work';
export { answerBy, type AnswerGuard } from './answer-guard';
export { eventLoopDelaySampler, LoadShedder, type LoadShedderOptions, type LoopDelaySampler, type ShedReason } from './load-shedder';
export {
  BUDGET_METRIC_NAMES,
  createAbandonedWorkMetric,
  createBudgetMetrics,
  type AbandonedWorkMetric,
  type BudgetMetrics,
  type RequestOutcome,
} from './metrics';
export {
  LATENCY_CYCLES,
  SEED_PUBLISHED_TABLE,
  TRACKING_REFERENCE,
  TRACKING_STEPS,
  slotsHeld,
  type SeedTableRow,
  type TrackingRegime,
  type TrackingStep,
} from './reference-scenario';
