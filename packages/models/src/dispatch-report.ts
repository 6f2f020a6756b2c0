import type { Channel } from './channels';
import { runDispatch, SEED_NOTIFICATIONS, SEED_RANDOM_SEED, type DispatchOptions, type DispatchResult } from './dispatch-model';
import { BI_ASSUMPTIONS } from './notification-assumptions';
import { runRecipientDay, type RecipientDayResult } from './recipient-day-model';

/** `seed`: a row the seed document publishes; `ours`: a platform policy beside it. */
export type Origin = 'seed' | 'ours';

/** Stable row ids (JSON consumers key on these; the text labels may change). */
export const DISPATCH_ROW_IDS = [
  'single',
  'parallel',
  'cascade',
  'cascade-no-wait',
  'breaker-cascade',
  'breaker-cascade-reuse',
  'breaker-cascade-no-wait',
  'cascade-suppression',
] as const;
export type DispatchRowId = (typeof DISPATCH_ROW_IDS)[number];

export interface DispatchRow extends DispatchResult {
  readonly id: DispatchRowId;
  readonly origin: Origin;
}

export interface DispatchInputs {
  readonly seed: number;
  readonly notifications: number;
  readonly multiplier: number;
  /** The channel the "fully down" table takes out. */
  readonly down: Channel;
  /** Notifications per recipient in the suppression day. */
  readonly perRecipient: number;
}

export const DEFAULT_DISPATCH_INPUTS: DispatchInputs = Object.freeze({
  seed: SEED_RANDOM_SEED,
  notifications: SEED_NOTIFICATIONS,
  multiplier: 1,
  down: 'push',
  perRecipient: BI_ASSUMPTIONS.notificationsPerRecipient,
});

/** The seed's stress rows, always printed; the chosen multiplier is added when different. */
export const SEED_MULTIPLIERS = [1, 2, 3] as const;
/** The urgent class's bound on mean delivery latency, seconds. */
export const URGENT_MEAN_BOUND_SECONDS = 5;

export interface NoWaitRow {
  readonly scenario: string;
  readonly id: DispatchRowId;
  readonly origin: Origin;
  readonly deliveryRate: number;
  readonly meanDeliverySeconds: number | null;
  /** Share of delivered notifications that needed no pause. */
  readonly noPauseShare: number | null;
  readonly meetsUrgentBound: boolean;
}

export interface DispatchReport {
  readonly command: 'dispatch';
  readonly inputs: DispatchInputs & { readonly attemptBudget: number; readonly waitSeconds: number };
  readonly layouts: readonly DispatchRow[];
  readonly multipliers: readonly {
    readonly multiplier: number;
    readonly single: number;
    readonly parallel: number;
    readonly cascade: number;
  }[];
  readonly channelDown: { readonly channel: Channel; readonly rows: readonly DispatchRow[] };
  readonly derived: {
    readonly cascadeMinusSinglePoints: number;
    readonly parallelCallsRatio: number;
    readonly parallelDuplicates: number;
    readonly parallelExtraPerNotification: number;
    readonly parallelMeanDeliverySeconds: number | null;
    readonly cascadeMeanDeliverySeconds: number | null;
  };
  readonly breaker: {
    readonly channel: Channel;
    /** The seed's estimate: cascade calls with the channel down minus on a healthy run. */
    readonly seedEstimateSavedCalls: number;
    /** Ours: cascade calls with the channel down minus the same run with its breaker open. */
    readonly savedCalls: number;
  };
  readonly noWait: { readonly urgentBoundSeconds: number; readonly rows: readonly NoWaitRow[] };
  readonly suppression: {
    readonly recipients: number;
    readonly perRecipient: number;
    readonly rows: readonly (DispatchRow & { readonly suppressionEntries: number })[];
    readonly savedCalls: number;
    /** BI1 x BI2: the day the saving is scaled to. */
    readonly notificationsPerDay: number;
    /** savedCalls scaled from this sample to notificationsPerDay. */
    readonly savedCallsPerDay: number;
  };
}

type RunSpec = Omit<DispatchOptions, 'seed' | 'notifications'>;

/** A recipient-day result as a table row (the recipient count is reported once, not per row). */
function dayRow(id: DispatchRowId, origin: Origin, day: RecipientDayResult): DispatchRow & { readonly suppressionEntries: number } {
  const { recipients: _perTable, ...row } = day;
  return { id, origin, ...row };
}

/** Builds every table of `dispatch` (seed rows and ours) for one set of inputs. */
export function buildDispatchReport(inputs: DispatchInputs = DEFAULT_DISPATCH_INPUTS): DispatchReport {
  const cache = new Map<string, DispatchResult>();
  const run = (spec: RunSpec): DispatchResult => {
    const key = JSON.stringify(spec);
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const result = runDispatch({ ...spec, seed: inputs.seed, notifications: inputs.notifications });
    cache.set(key, result);
    return result;
  };
  const row = (id: DispatchRowId, origin: Origin, spec: RunSpec): DispatchRow => ({ id, origin, ...run(spec) });
  const m = inputs.multiplier;
  const down = inputs.down;

  const single = row('single', 'seed', { layout: 'single', multiplier: m });
  const parallel = row('parallel', 'seed', { layout: 'parallel', multiplier: m });
  const cascade = row('cascade', 'seed', { layout: 'cascade', multiplier: m });
  const cascadeNoWait = row('cascade-no-wait', 'ours', { layout: 'cascade', multiplier: m, waitPolicy: 'after-transient' });

  const multipliers = [...SEED_MULTIPLIERS, ...(SEED_MULTIPLIERS.some((x) => x === m) ? [] : [m])].map((x) => ({
    multiplier: x,
    single: run({ layout: 'single', multiplier: x }).deliveryRate,
    parallel: run({ layout: 'parallel', multiplier: x }).deliveryRate,
    cascade: run({ layout: 'cascade', multiplier: x }).deliveryRate,
  }));

  const downSpec = { multiplier: m, down } as const;
  const downRows = [
    row('single', 'seed', { ...downSpec, layout: 'single' }),
    row('parallel', 'seed', { ...downSpec, layout: 'parallel' }),
    row('cascade', 'seed', { ...downSpec, layout: 'cascade' }),
    row('breaker-cascade', 'ours', { ...downSpec, layout: 'cascade', breakerAware: true }),
    row('breaker-cascade-reuse', 'ours', { ...downSpec, layout: 'cascade', breakerAware: true, reuseFreedAttempts: true }),
  ];
  const cascadeDown = run({ ...downSpec, layout: 'cascade' });
  const breakerDown = run({ ...downSpec, layout: 'cascade', breakerAware: true });

  const noWaitRow = (scenario: string, id: DispatchRowId, origin: Origin, spec: RunSpec): NoWaitRow => {
    const r = run(spec);
    return {
      scenario,
      id,
      origin,
      deliveryRate: r.deliveryRate,
      meanDeliverySeconds: r.meanDeliverySeconds,
      noPauseShare: r.delivered === 0 ? null : r.deliveredWithoutPause / r.delivered,
      meetsUrgentBound: r.meanDeliverySeconds !== null && r.meanDeliverySeconds <= URGENT_MEAN_BOUND_SECONDS,
    };
  };
  const noWaitRows = multipliers.flatMap(({ multiplier: x }) => [
    noWaitRow(`x${x}`, 'cascade', 'seed', { layout: 'cascade', multiplier: x }),
    noWaitRow(`x${x}`, 'cascade-no-wait', 'ours', { layout: 'cascade', multiplier: x, waitPolicy: 'after-transient' }),
  ]);
  const downLabel = m === 1 ? `${down} down` : `${down} down x${m}`;
  noWaitRows.push(
    noWaitRow(downLabel, 'cascade', 'seed', { ...downSpec, layout: 'cascade' }),
    noWaitRow(downLabel, 'cascade-no-wait', 'ours', { ...downSpec, layout: 'cascade', waitPolicy: 'after-transient' }),
    noWaitRow(downLabel, 'breaker-cascade', 'ours', { ...downSpec, layout: 'cascade', breakerAware: true }),
    noWaitRow(downLabel, 'breaker-cascade-no-wait', 'ours', {
      ...downSpec,
      layout: 'cascade',
      breakerAware: true,
      waitPolicy: 'after-transient',
    }),
  );

  const day = (suppression: boolean): RecipientDayResult =>
    runRecipientDay({
      seed: inputs.seed,
      notifications: inputs.notifications,
      perRecipient: inputs.perRecipient,
      multiplier: m,
      suppression,
    });
  const plainDay = day(false);
  const suppressedDay = day(true);
  const savedCalls = plainDay.externalCalls - suppressedDay.externalCalls;
  const perDay = BI_ASSUMPTIONS.dailyRecipients * BI_ASSUMPTIONS.notificationsPerRecipient;

  return {
    command: 'dispatch',
    // Spelled out so the JSON key order never depends on how the caller built its object.
    inputs: {
      seed: inputs.seed,
      notifications: inputs.notifications,
      multiplier: m,
      down,
      perRecipient: inputs.perRecipient,
      attemptBudget: BI_ASSUMPTIONS.attemptBudget,
      waitSeconds: BI_ASSUMPTIONS.waitSeconds,
    },
    layouts: [single, parallel, cascade, cascadeNoWait],
    multipliers,
    channelDown: { channel: down, rows: downRows },
    derived: {
      cascadeMinusSinglePoints: (cascade.deliveryRate - single.deliveryRate) * 100,
      parallelCallsRatio: parallel.externalCalls / cascade.externalCalls,
      parallelDuplicates: parallel.duplicates,
      parallelExtraPerNotification: parallel.duplicates / parallel.notifications,
      parallelMeanDeliverySeconds: parallel.meanDeliverySeconds,
      cascadeMeanDeliverySeconds: cascade.meanDeliverySeconds,
    },
    breaker: {
      channel: down,
      seedEstimateSavedCalls: cascadeDown.externalCalls - cascade.externalCalls,
      savedCalls: cascadeDown.externalCalls - breakerDown.externalCalls,
    },
    noWait: { urgentBoundSeconds: URGENT_MEAN_BOUND_SECONDS, rows: noWaitRows },
    suppression: {
      recipients: plainDay.recipients,
      perRecipient: inputs.perRecipient,
      rows: [dayRow('cascade', 'seed', plainDay), dayRow('cascade-suppression', 'ours', suppressedDay)],
      savedCalls,
      notificationsPerDay: perDay,
      savedCallsPerDay: Math.round((savedCalls / inputs.notifications) * perDay),
    },
  };
}
