import { getEventListeners } from 'node:events';
import { Deadline } from './deadline';
import { isCancelled, isDeadlineExceeded } from './errors';
import { ManualTime } from './manual-time';

function start(time: ManualTime, budgetMs: number, step = 'request'): Deadline {
  return new Deadline({ budgetMs, step, clock: time, timer: time });
}

describe('Deadline', () => {
  it('counts remaining time down on the injected clock and expires at its budget', async () => {
    const time = new ManualTime();
    const deadline = start(time, 200);
    expect(deadline.remainingMs()).toBe(200);
    await time.advanceBy(150);
    expect(deadline.remainingMs()).toBe(50);
    expect(deadline.elapsedMs()).toBe(150);
    expect(deadline.aborted).toBe(false);
    await time.advanceBy(50);
    expect(deadline.expired).toBe(true);
    expect(isDeadlineExceeded(deadline.signal.reason)).toBe(true);
    expect(deadline.remainingMs()).toBe(0);
    expect(time.pending()).toBe(0);
  });

  it('gives a child min(share, remaining) and names the child step in its errors', async () => {
    const time = new ManualTime();
    const branch = start(time, 180, 'pricing');
    await time.advanceBy(150);
    const child = branch.child('measurement', 120);
    expect(child.budgetMs).toBe(30);
    await time.advanceBy(30);
    expect(child.expired).toBe(true);
    expect(child.signal.reason).toMatchObject({ code: 'DEADLINE_EXCEEDED', step: 'measurement' });
  });

  it('aborts children when the parent is cancelled, as cancellations of the child step', () => {
    const time = new ManualTime();
    const parent = start(time, 200);
    const child = parent.child('tariff', 60);
    parent.cancel('client disconnected');
    expect(isCancelled(child.signal.reason)).toBe(true);
    expect(child.signal.reason).toMatchObject({ step: 'tariff' });
    expect(time.pending()).toBe(0);
  });

  it('expireNow() ends the budget early as an expiry: children run out of time, they are not cancelled', () => {
    const time = new ManualTime();
    const request = start(time, 200, 'tracking');
    const child = request.child('measurement', 120);
    const seen: unknown[] = [];
    child.onAbort((reason) => seen.push(reason));
    request.expireNow('tracking answered at its deadline');
    expect(request.expired).toBe(true);
    expect(request.reason?.message).toBe('tracking answered at its deadline');
    expect(child.expired).toBe(true);
    expect(isDeadlineExceeded(seen[0])).toBe(true);
    expect(isCancelled(seen[0])).toBe(false);
    // The signal, built after the abort, is born aborted with the same reason.
    expect(child.signal.aborted).toBe(true);
    expect(child.signal.reason).toBe(child.reason);
    request.expireNow();
    request.cancel();
    expect(request.expired).toBe(true);
    expect(time.pending()).toBe(0);
  });

  it('is born aborted when derived from an aborted parent or with no budget left', () => {
    const time = new ManualTime();
    const parent = start(time, 100);
    parent.cancel();
    expect(parent.child('late').aborted).toBe(true);
    const empty = start(time, 0, 'empty');
    expect(empty.expired).toBe(true);
  });

  it('counts a result that lands exactly at expiry as in time (the model treats "<=" as answered)', async () => {
    const time = new ManualTime();
    const deadline = start(time, 180, 'tariff');
    let settledFirst: 'work' | 'deadline' | undefined;
    deadline.signal.addEventListener('abort', () => (settledFirst ??= 'deadline'));
    void time.sleep(180).then(() => (settledFirst ??= 'work'));
    await time.advanceBy(180);
    await time.runAll();
    expect(settledFirst).toBe('work');
    expect(deadline.expired).toBe(true);
  });

  it('dispose() unlinks the child from its parent and clears the timer without aborting', () => {
    const time = new ManualTime();
    const parent = start(time, 1000);
    const child = parent.child('step', 10);
    expect(parent.linkedCount).toBe(1);
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0); // linked without an EventTarget listener
    expect(time.pending()).toBe(2);
    child.dispose();
    child.dispose();
    expect(parent.linkedCount).toBe(0);
    expect(time.pending()).toBe(1);
    expect(child.aborted).toBe(false);
  });

  it('an unbounded deadline has no timer and only follows its parent', () => {
    const time = new ManualTime();
    const server = new AbortController();
    const deadline = new Deadline({ budgetMs: Number.POSITIVE_INFINITY, clock: time, timer: time, parent: server.signal });
    expect(deadline.remainingMs()).toBe(Number.POSITIVE_INFINITY);
    expect(time.pending()).toBe(0);
    server.abort(new Error('shutting down'));
    expect(isCancelled(deadline.signal.reason)).toBe(true);
  });

  it('uses the global setTimeout by default, so jest fake timers drive it (AbortSignal.timeout would not)', () => {
    jest.useFakeTimers();
    try {
      const deadline = new Deadline({ budgetMs: 100, clock: { now: () => Date.now() } });
      jest.advanceTimersByTime(99);
      expect(deadline.aborted).toBe(false);
      jest.advanceTimersByTime(2);
      expect(deadline.expired).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});
