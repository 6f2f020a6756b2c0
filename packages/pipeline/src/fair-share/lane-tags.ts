/**
 * Start-time fair queueing inside one lane (docs/tenants.md, "Fair share"): the lane keeps a
 * virtual time V and each tenant a finish tag F. A job of n steps of a tenant of weight w starts
 * at S = max(V, F) and moves F to S + n / w; the lane serves the smallest S first, and V follows
 * the S of the jobs taken. A tenant that was idle starts at V (no credit hoarded), a flooding
 * tenant's tags run ahead of V by its backlog over its weight.
 */

/** BullMQ's largest job priority (2^21 − 1; a lower number is served first, 0 is the plain wait list). */
export const MAX_JOB_PRIORITY = 2_097_151;

/** Priority units per virtual step (one step of a weight-1 tenant): the cap is a lead of MAX_JOB_PRIORITY / 8 ≈ 262,000 steps. */
export const PRIORITY_UNITS_PER_STEP = 8;

/** Where a job starts and where its tenant's next job starts. */
export interface LaneTags {
  start: number;
  finish: number;
}

/** The tags of a job of `steps` steps added at virtual time `v` by a tenant whose finish tag is `finish` (0: none yet). */
export function tagsOf(v: number, finish: number, steps: number, weight: number): LaneTags {
  const start = Math.max(v, finish);
  return { start, finish: start + steps / Math.max(1, weight) };
}

/**
 * The BullMQ priority of a job starting at `start` while the lane's time is `v`: its lead over
 * V, at least 1 (every job of a fair lane is prioritized: BullMQ serves the plain wait list
 * before any prioritized job) and at most MAX_JOB_PRIORITY (a lead past it waits in arrival order).
 */
export function priorityOf(start: number, v: number): number {
  const lead = Math.max(0, start - v);
  return Math.min(MAX_JOB_PRIORITY, 1 + Math.floor(lead * PRIORITY_UNITS_PER_STEP));
}

/** A tenant's backlog in a lane, in steps: its finish tag's lead over V times its weight. */
export function backlogOf(v: number, finish: number, weight: number): number {
  return Math.max(0, finish - v) * Math.max(1, weight);
}

/** The hash of one lane's tags (`v`, `f:<tenant>`, `w:<tenant>`), beside its BullMQ keys: in its partition's slot. */
export function laneTagsKey(queueQualifiedName: string): string {
  return `${queueQualifiedName}:fair`;
}
