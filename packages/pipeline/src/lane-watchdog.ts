import { z } from 'zod';

/**
 * Why a lane watchdog: after a Redis Cluster master is SIGKILLed and failed over, some BullMQ
 * lane workers on that master's partitions stop fetching for good (their fetch loop never
 * calls moveToActive again: runnable jobs stay `waiting`, due delayed jobs are never
 * promoted) while the process and every other lane live on. No worker or connection option
 * was found to cure it, so a lane that has runnable work, free slots and has started nothing
 * for a while gets a fresh Worker (docs/cluster.md, "Failover").
 */
export interface LaneObservation {
  /** Jobs that could run now: waiting, prioritized, and delayed jobs already due. */
  runnable: number;
  /** Jobs this process runs on the lane now. */
  inFlight: number;
  concurrency: number;
  /** When the lane's worker last started a job (or was created), ms epoch. */
  lastStartAt: number;
  now: number;
}

export interface LaneWatchdogConfig {
  /** How long a lane may have runnable work and free slots without starting any job. */
  idleMs: number;
  /** How often lanes are checked. */
  intervalMs: number;
}

/** 30 s: longer than a BullMQ block (10 s) plus its stuck-connection timer, shorter than the intake sweeper's pass. */
export const DEFAULT_LANE_WATCHDOG: LaneWatchdogConfig = { idleMs: 30_000, intervalMs: 5_000 };

/** True when the lane's worker should be replaced: work is runnable, a slot is free, and nothing started for `idleMs`. */
export function laneIsStuck(lane: LaneObservation, config: Pick<LaneWatchdogConfig, 'idleMs'>): boolean {
  return lane.runnable > 0 && lane.inFlight < lane.concurrency && lane.now - lane.lastStartAt >= config.idleMs;
}

/** The worker's LANE_WATCHDOG_IDLE_MS (docs/cluster.md, "Failover"). */
export const laneWatchdogEnvShape = {
  LANE_WATCHDOG_IDLE_MS: z.coerce
    .number()
    .int()
    .min(2_000)
    .max(3_600_000)
    .default(DEFAULT_LANE_WATCHDOG.idleMs)
    .describe(
      'A lane with runnable work and free slots that has started nothing for this long gets a fresh BullMQ worker (after a Redis Cluster failover some lane workers stop fetching); ms, at least 2000.',
    ),
};

export function toLaneWatchdogConfig(c: { LANE_WATCHDOG_IDLE_MS: number }): LaneWatchdogConfig {
  return { ...DEFAULT_LANE_WATCHDOG, idleMs: c.LANE_WATCHDOG_IDLE_MS };
}
