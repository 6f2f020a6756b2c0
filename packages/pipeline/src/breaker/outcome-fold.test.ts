import { OutcomeFold } from './outcome-fold';

describe('OutcomeFold', () => {
  it('folds successes and failures per channel and hands them over once', () => {
    const fold = new OutcomeFold();
    fold.setFailuresToTrip('push', 100);
    for (let i = 0; i < 5; i += 1) fold.add('push', 'success');
    fold.add('push', 'failure');
    fold.add('sms', 'success');
    expect(fold.breakers().sort()).toEqual(['push', 'sms']);
    expect(fold.take('push')).toEqual({ calls: 6, failures: 1 });
    expect(fold.take('push')).toBeUndefined();
    expect(fold.take('email')).toBeUndefined();
    expect(fold.breakers()).toEqual(['sms']);
  });

  it('asks for a report at once on the first failure until the script says how many could trip it', () => {
    const fold = new OutcomeFold();
    expect(fold.add('push', 'success')).toBe(false);
    expect(fold.add('push', 'failure')).toBe(true);
    fold.take('push');
    fold.setFailuresToTrip('push', 3);
    expect(fold.add('push', 'failure')).toBe(false);
    expect(fold.add('push', 'success')).toBe(false);
    expect(fold.add('push', 'failure')).toBe(false);
    expect(fold.add('push', 'failure')).toBe(true);
    // The threshold counts failures folded since the last report.
    fold.take('push');
    expect(fold.add('push', 'failure')).toBe(false);
  });

  it('never asks early when failures alone cannot trip it, and again at once after a transition', () => {
    const fold = new OutcomeFold();
    fold.setFailuresToTrip('sms', Number.POSITIVE_INFINITY);
    for (let i = 0; i < 1_000; i += 1) expect(fold.add('sms', 'failure')).toBe(false);
    fold.resetFailuresToTrip('sms');
    expect(fold.add('sms', 'failure')).toBe(true);
  });
});
