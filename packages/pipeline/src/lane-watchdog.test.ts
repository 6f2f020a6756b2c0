import { DEFAULT_LANE_WATCHDOG, laneIsStuck, type LaneObservation } from './lane-watchdog';

const base: LaneObservation = { runnable: 3, inFlight: 0, concurrency: 4, lastStartAt: 0, now: 60_000 };

describe('laneIsStuck', () => {
  it('flags a lane with runnable jobs and free slots that started nothing for idleMs', () => {
    expect(laneIsStuck(base, { idleMs: 30_000 })).toBe(true);
    expect(laneIsStuck({ ...base, now: 30_000 }, { idleMs: 30_000 })).toBe(true);
  });

  it('leaves alone a lane that started a job recently, has nothing runnable, or has every slot busy', () => {
    expect(laneIsStuck({ ...base, lastStartAt: 45_000 }, { idleMs: 30_000 })).toBe(false);
    expect(laneIsStuck({ ...base, runnable: 0 }, { idleMs: 30_000 })).toBe(false);
    expect(laneIsStuck({ ...base, inFlight: 4 }, { idleMs: 30_000 })).toBe(false);
  });

  it('waits longer than a BullMQ block by default', () => {
    expect(DEFAULT_LANE_WATCHDOG.idleMs).toBeGreaterThan(11_000);
  });
});
