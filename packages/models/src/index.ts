/**
 * @notify/models: the seed documents' models, exact to their published tables, and the
 * platform's policies beside them. The policy functions (cascadeOrder, nextCyclicChannel,
 * pausesAfterFailure, shouldSuppress, splitBudget, percentile) are pure so the product can
 * share them.
 */
export { createLcg, LCG_INCREMENT, LCG_MULTIPLIER, type Random } from './lcg';
export { CHANNELS, isChannel, type Channel, type PerChannel } from './channels';
export {
  AssumptionsError,
  BI_ASSUMPTIONS,
  isAssumptionsError,
  notificationAssumptionsSchema,
  parseAssumptions,
  withAssumptions,
  type NotificationAssumptions,
} from './notification-assumptions';
export { effectiveRates, maxMultiplier, pickPreferred, type EffectiveRates } from './channel-rates';
export { cascadeOrder, layoutOrder, LAYOUTS, nextCyclicChannel, type FailedAttempt, type Layout, type OrderOptions } from './cascade-order';
export { FAILURE_KINDS, pausesAfterFailure, WAIT_POLICIES, type FailureKind, type WaitPolicy } from './wait-policy';
export { channelsToSkip, shouldSuppress } from './suppression';
export { runTrial, type TrialFacts, type TrialOutcome, type TrialPolicy } from './notification-trial';
export { runDispatch, SEED_NOTIFICATIONS, SEED_RANDOM_SEED, type DispatchOptions, type DispatchResult } from './dispatch-model';
export { runRecipientDay, type RecipientDayOptions, type RecipientDayResult } from './recipient-day-model';
export {
  buildDispatchReport,
  DEFAULT_DISPATCH_INPUTS,
  DISPATCH_ROW_IDS,
  URGENT_MEAN_BOUND_SECONDS,
  type DispatchInputs,
  type DispatchReport,
  type DispatchRow,
  type DispatchRowId,
  type Origin,
} from './dispatch-report';
export { DELIVERY_THRESHOLD, runScale, type ChannelScale, type ScaleResult } from './scale-model';
export {
  BRANCH_BUDGET_MS,
  CHAIN_STEPS,
  DURATION_PROFILES,
  GATEWAY_SHARE_MS,
  ORDINARY_MS,
  REGIMES,
  slotsHeld,
  TRACKING,
  type ChainStep,
  type PerStep,
  type Regime,
} from './chain-profile';
export {
  isSplitPolicy,
  percentile,
  SEED_SPLIT_POLICIES,
  SPLIT_POLICIES,
  splitBudget,
  TAIL_PERCENTILE,
  type SplitPolicy,
  type StepLatency,
} from './split-budget';
export { pricingShares, runChain, SEED_REQUESTS, stepLatency, type ChainOptions, type ChainResult } from './chain-model';
export { buildBudgetReport, DEFAULT_BUDGET_INPUTS, type BudgetInputs, type BudgetReport } from './budget-report';
export { runCli, USAGE, type CliIo } from './run-cli';
export { EXIT, isUsageError, UsageError } from './usage-error';
