import { DEFAULT_REMINDER_YIELD, ReminderYield, SLOT_WAIT_FACTOR, YIELD_INCREASE, type YieldSignals } from './reminder-yield';

const config = { ...DEFAULT_REMINDER_YIELD, lagTargetMs: 20, minPercent: 10, holdMs: 1_000 };
const calm: Omit<YieldSignals, 'now'> = { lagMs: 5, urgentInFlight: 0, urgentQueued: 0, urgentWaitMs: 0 };
const late: Omit<YieldSignals, 'now'> = { lagMs: 80, urgentInFlight: 0, urgentQueued: 0, urgentWaitMs: 0 };

describe('ReminderYield', () => {
  it('keeps every slot while no urgent work is about, however late the loop', () => {
    const y = new ReminderYield(config);
    for (let now = 0; now < 2_000; now += 100) expect(y.tick({ now, ...late })).toBe(1);
    expect(y.slotsOf(24)).toBe(24);
  });

  it('halves the share each late window while urgent work is about, down to the least share', () => {
    const y = new ReminderYield(config);
    y.urgentStarted(0);
    const shares = [100, 200, 300, 400, 500].map((now) => y.tick({ now, ...late }));
    expect(shares).toEqual([0.5, 0.25, 0.125, 0.1, 0.1]);
    expect([y.slotsOf(24), y.slotsOf(11), y.slotsOf(9)]).toEqual([2, 1, 1]);
  });

  it('takes slots back step by step in windows on time, and halves again when the loop is late', () => {
    const y = new ReminderYield(config);
    y.urgentStarted(0);
    y.tick({ now: 100, ...late });
    y.tick({ now: 200, urgentInFlight: 1, lagMs: 5, urgentQueued: 0, urgentWaitMs: 0 });
    expect(y.share).toBeCloseTo(0.5 + YIELD_INCREASE);
    y.tick({ now: 300, urgentInFlight: 1, lagMs: 5, urgentQueued: 0, urgentWaitMs: 0 });
    expect(y.share).toBeCloseTo(0.5 + 2 * YIELD_INCREASE);
    y.tick({ now: 400, urgentInFlight: 1, lagMs: 50, urgentQueued: 0, urgentWaitMs: 0 });
    expect(y.share).toBeCloseTo((0.5 + 2 * YIELD_INCREASE) / 2);
  });

  it('yields while urgent steps are held up for a slot of their own lane, even with the loop on time', () => {
    const y = new ReminderYield(config);
    const heldUp = config.lagTargetMs * SLOT_WAIT_FACTOR + 1;
    expect(y.tick({ now: 100, lagMs: 0, urgentInFlight: 22, urgentQueued: 3, urgentWaitMs: heldUp })).toBe(0.5);
    expect(y.tick({ now: 200, lagMs: 0, urgentInFlight: 22, urgentQueued: 3, urgentWaitMs: heldUp })).toBe(0.25);
  });

  it('a short urgent queue, as a batch job hands a lane more steps than it has slots, does not yield', () => {
    const y = new ReminderYield(config);
    const brief = config.lagTargetMs * SLOT_WAIT_FACTOR;
    for (let now = 100; now <= 1_000; now += 100) expect(y.tick({ now, lagMs: 0, urgentInFlight: 18, urgentQueued: 46, urgentWaitMs: brief })).toBe(1);
  });

  it('an urgent job in flight counts as urgent work about; the hold runs from the last one seen', () => {
    const y = new ReminderYield(config);
    y.tick({ now: 100, ...late, urgentInFlight: 1 });
    expect(y.share).toBe(0.5);
    // 1,000 ms after the last urgent work seen (at 100) it is still governed; after that, all slots at once.
    expect(y.tick({ now: 1_100, ...late })).toBe(0.25);
    expect(y.tick({ now: 1_101, ...late })).toBe(1);
  });

  it('a lag target of 0 never yields', () => {
    const y = new ReminderYield({ ...config, lagTargetMs: 0 });
    y.urgentStarted(0);
    expect(y.tick({ now: 100, lagMs: 1_000, urgentInFlight: 5, urgentQueued: 5, urgentWaitMs: 5_000 })).toBe(1);
  });

  it('keeps at least one slot on a small lane', () => {
    const y = new ReminderYield({ ...config, minPercent: 1 });
    y.urgentStarted(0);
    for (let now = 100; now < 2_000; now += 100) y.tick({ now: Math.min(now, 900), ...late });
    expect(y.share).toBe(0.01);
    expect(y.slotsOf(3)).toBe(1);
  });

  it('stays governed on a calm loop only while urgent work is about', () => {
    const y = new ReminderYield(config);
    y.urgentStarted(0);
    y.tick({ now: 100, ...late });
    expect(y.tick({ now: 200, ...calm })).toBeCloseTo(0.5 + YIELD_INCREASE);
    expect(y.tick({ now: 5_000, ...calm })).toBe(1);
  });
});
