import { runChaos } from '../run-chaos';
import { breakerTimes, type StateChange } from './breaker-timeline';

/** Where the outage sits in the load: push dies at 25 % of it and comes back at 75 %. */
export const OUTAGE = { from: 0.25, to: 0.75 } as const;

/** The push outage of one run, timed against the load it is scheduled in. */
export interface ScheduledOutage {
  /** When the kill was started (epoch ms); NaN until then. */
  readonly downAt: number;
  /** When the restore completed (epoch ms); NaN until then. */
  readonly upAt: number;
  /** Clears the timers that have not fired yet (the load ended early or failed). */
  cancel(): void;
  /** Waits for the kill and the restore that fired: a kill's rejection surfaces here unless a restore followed it. */
  settled(): Promise<void>;
}

/**
 * Kills push at OUTAGE.from of `loadMs` and restores it at OUTAGE.to. The restore waits for
 * the kill to finish (whatever its outcome), so push is never restored before it went down.
 */
export function scheduleOutage(loadMs: number, kill: () => Promise<void>, restore: () => Promise<void>): ScheduledOutage {
  let downAt = Number.NaN;
  let upAt = Number.NaN;
  let outage: Promise<void> = Promise.resolve();
  const killTimer = setTimeout(() => {
    downAt = Date.now();
    outage = kill();
  }, loadMs * OUTAGE.from);
  const restoreTimer = setTimeout(() => {
    outage = outage
      .catch(() => undefined)
      .then(() => restore())
      .then(() => {
        upAt = Date.now();
      });
  }, loadMs * OUTAGE.to);
  return {
    get downAt() {
      return downAt;
    },
    get upAt() {
      return upAt;
    },
    cancel() {
      clearTimeout(killTimer);
      clearTimeout(restoreTimer);
    },
    settled: () => outage,
  };
}

/** `kill-provider` / `restore-provider` through the chaos CLI itself; a non-zero exit fails the run. */
export async function chaosCommand(argv: string[], env: Record<string, string>): Promise<void> {
  const errors: string[] = [];
  const code = await runChaos(argv, { out: () => undefined, err: (text) => errors.push(text), env });
  if (code !== 0) throw new Error(`chaos ${argv.join(' ')} exited ${code}: ${errors.join('; ')}`);
}

/**
 * Gives the breaker time to probe and close after the restore: returns once the timeline shows
 * it closed, or never opened, or after 20 open periods and 2 s (bounded), or on abort.
 */
export async function awaitBreakerClose(
  changes: readonly StateChange[],
  window: { downAt: number; upAt: number },
  breakerOpenMs: number,
  signal: AbortSignal,
): Promise<void> {
  const closeBy = Date.now() + 20 * breakerOpenMs + 2_000;
  while (Date.now() < closeBy && !signal.aborted) {
    const times = breakerTimes(changes, window.downAt, window.upAt);
    if (times.closedAfterMs !== undefined || times.openedAfterMs === undefined) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
