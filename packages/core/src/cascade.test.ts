import { nextCascadeStep, planCascade, spentCalls, type CascadeAttempt } from './cascade';
import type { Channel } from './channels';

const never = () => undefined;
const all: Channel[] = ['push', 'sms', 'email'];

describe('planCascade', () => {
  it('follows the preference order and appends the other channels in default order', () => {
    expect(planCascade(['email'], { push: 't', sms: '+905551112233', email: 'a@b.co' })).toEqual(['email', 'push', 'sms']);
  });
  it('drops channels without an address', () => {
    expect(planCascade(['sms', 'push', 'email'], { email: 'a@b.co', push: 't' })).toEqual(['push', 'email']);
    expect(planCascade(undefined, {})).toEqual([]);
  });
});

describe('nextCascadeStep', () => {
  const step = (attempts: CascadeAttempt[], plan = all, budget = 3) => nextCascadeStep(plan, attempts, budget, never);

  it('starts at the preferred channel and cascades in order after transient errors', () => {
    expect(step([])).toMatchObject({ kind: 'send', channel: 'push' });
    expect(step([{ channel: 'push', outcome: 'transient' }])).toMatchObject({ kind: 'send', channel: 'sms' });
    expect(
      step([
        { channel: 'push', outcome: 'transient' },
        { channel: 'sms', outcome: 'transient' },
      ]),
    ).toMatchObject({ kind: 'send', channel: 'email' });
  });

  it('never spends more than the budget', () => {
    const three: CascadeAttempt[] = [
      { channel: 'push', outcome: 'transient' },
      { channel: 'sms', outcome: 'transient' },
      { channel: 'email', outcome: 'transient' },
    ];
    expect(step(three)).toEqual({ kind: 'give-up', reason: 'budget-exhausted' });
    expect(step([{ channel: 'push', outcome: 'transient' }], all, 1)).toEqual({ kind: 'give-up', reason: 'budget-exhausted' });
  });

  it('wraps around to retry a transient channel when the plan is shorter than the budget', () => {
    const plan: Channel[] = ['sms'];
    expect(step([{ channel: 'sms', outcome: 'transient' }], plan)).toMatchObject({ kind: 'send', channel: 'sms' });
  });

  it('never retries a channel that failed permanently', () => {
    const plan: Channel[] = ['push', 'sms'];
    expect(
      step(
        [
          { channel: 'push', outcome: 'permanent' },
          { channel: 'sms', outcome: 'transient' },
        ],
        plan,
      ),
    ).toMatchObject({ kind: 'send', channel: 'sms' });
    expect(
      step(
        [
          { channel: 'push', outcome: 'permanent' },
          { channel: 'sms', outcome: 'permanent' },
        ],
        plan,
      ),
    ).toEqual({ kind: 'give-up', reason: 'all-channels-permanent' });
  });

  it('reconciles an unknown outcome on the same channel before cascading', () => {
    expect(step([{ channel: 'push', outcome: 'unknown' }])).toEqual({ kind: 'reconcile', channel: 'push' });
    expect(step([{ channel: 'push', outcome: undefined }])).toEqual({ kind: 'reconcile', channel: 'push' });
    const exhausted: CascadeAttempt[] = [
      { channel: 'push', outcome: 'unknown' },
      { channel: 'push', outcome: 'unknown' },
      { channel: 'push', outcome: 'unknown' },
    ];
    expect(step(exhausted)).toEqual({ kind: 'unconfirmed', reason: 'unknown-outcome-budget-exhausted' });
  });

  it('keeps reconciling while a reconciliation only answers transient (the original may still arrive)', () => {
    const history: CascadeAttempt[] = [
      { channel: 'push', outcome: 'unknown' },
      { channel: 'push', outcome: 'transient' },
    ];
    expect(step(history)).toEqual({ kind: 'reconcile', channel: 'push' });
    expect(step([...history, { channel: 'push', outcome: 'transient' }])).toEqual({ kind: 'unconfirmed', reason: 'unknown-outcome-budget-exhausted' });
    expect(
      step([
        { channel: 'push', outcome: 'unknown' },
        { channel: 'push', outcome: 'permanent' },
      ]),
    ).toMatchObject({ kind: 'send', channel: 'sms' });
  });

  it('does not count a reconciliation that never left: it reconciles again, the budget intact', () => {
    const refused: CascadeAttempt = { channel: 'push', outcome: 'transient', spent: false };
    const history: CascadeAttempt[] = [{ channel: 'push', outcome: 'unknown' }, refused, refused, refused];
    expect(step(history)).toEqual({ kind: 'reconcile', channel: 'push' });
    expect(spentCalls(history)).toBe(1);
  });

  it('moves past a channel that cannot render the message, spending nothing and never returning to it', () => {
    const unrenderable: CascadeAttempt = { channel: 'push', outcome: 'processing-error', spent: false };
    expect(step([unrenderable])).toMatchObject({ kind: 'send', channel: 'sms' });
    expect(step([unrenderable, { channel: 'sms', outcome: 'transient' }, { channel: 'email', outcome: 'transient' }])).toMatchObject({
      kind: 'send',
      channel: 'sms',
    });
    expect(step([unrenderable], ['push'])).toEqual({ kind: 'give-up', reason: 'all-channels-permanent' });
  });

  it('stops after a delivery', () => {
    expect(step([{ channel: 'push', outcome: 'delivered' }])).toEqual({ kind: 'done', reason: 'delivered' });
  });

  it('skips unavailable channels without spending budget, and waits when all are unavailable', () => {
    const pushOpen = (c: Channel) => (c === 'push' ? ('breaker-open' as const) : undefined);
    expect(nextCascadeStep(all, [], 3, pushOpen)).toEqual({ kind: 'send', channel: 'sms', skipped: [{ channel: 'push', reason: 'breaker-open' }] });
    expect(nextCascadeStep(all, [], 3, () => 'breaker-open')).toMatchObject({ kind: 'wait' });
    expect(nextCascadeStep(all, [], 3, () => 'suppressed')).toEqual({ kind: 'give-up', reason: 'all-channels-permanent' });
  });

  it('ends `opted-out` when every channel is closed before a call and one was opted out, and never waits for an opt-out to lift', () => {
    expect(nextCascadeStep(all, [], 3, () => 'opted-out')).toEqual({ kind: 'opted-out', reason: 'all-channels-opted-out' });
    const mixed = (c: Channel) => (c === 'email' ? ('suppressed' as const) : ('opted-out' as const));
    expect(nextCascadeStep(all, [], 3, mixed)).toEqual({ kind: 'opted-out', reason: 'all-channels-opted-out' });
    const afterCall = [{ channel: 'push' as const, outcome: 'transient' as const }];
    expect(nextCascadeStep(all, afterCall, 3, () => 'opted-out')).toEqual({ kind: 'give-up', reason: 'all-channels-permanent' });
    const emailOut = (c: Channel) => (c === 'email' ? ('opted-out' as const) : undefined);
    expect(nextCascadeStep(['email', 'sms'], [], 3, emailOut)).toEqual({ kind: 'send', channel: 'sms', skipped: [{ channel: 'email', reason: 'opted-out' }] });
  });
});
