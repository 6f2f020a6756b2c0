import { BI_ASSUMPTIONS, isAssumptionsError, parseAssumptions, withAssumptions } from './notification-assumptions';
import { runScale } from './scale-model';

describe('runScale reproduces the seed (olcek)', () => {
  const r = runScale();

  it('volume, peak and storage', () => {
    expect(r.dailyNotifications).toBe(30_000_000);
    expect(r.peakPerSecond.toFixed(2)).toBe('1736.11');
    expect(r.recordGigabytesPerDay.toFixed(2)).toBe('9.00');
  });

  it('per-channel peak calls and residual error after 3 tries', () => {
    expect(r.channels.map((c) => [c.channel, c.peakCallsPerSecond.toFixed(2), c.residualError.toFixed(6)])).toEqual([
      ['push', '954.86', '0.060125'],
      ['sms', '434.03', '0.020008'],
      ['email', '347.22', '0.010001'],
    ]);
  });

  it('single channel misses the 0.99 floor by 3.01 points', () => {
    expect(r.singleChannelResidual.toFixed(6)).toBe('0.040071');
    expect(r.singleChannelDelivery.toFixed(4)).toBe('0.9599');
    expect(r.singleChannelPasses).toBe(false);
    expect(r.gapPoints.toFixed(2)).toBe('3.01');
    expect(r.undeliveredPeakPerSecond.toFixed(2)).toBe('69.57');
    expect(r.undeliveredPerDay).toBe(1_202_129);
    expect(r.cascadeWorstDeliverySeconds).toBe(60);
  });

  it('passes the floor when the error rates are low enough', () => {
    const low = runScale(withAssumptions({ permanentError: { push: 0.001, sms: 0.001, email: 0.001 } }));
    expect(low.singleChannelPasses).toBe(true);
    expect(low.gapPoints).toBeLessThan(0);
  });
});

describe('assumption validation', () => {
  it('accepts the published table', () => {
    expect(parseAssumptions(BI_ASSUMPTIONS)).toEqual(BI_ASSUMPTIONS);
  });

  it.each([
    [{ channelShare: { push: 0.6, sms: 0.25, email: 0.2 } }, /channelShare: channel shares must sum to 1/],
    [{ transientError: { push: 1.5, sms: 0.02, email: 0.01 } }, /transientError\.push/],
    [{ permanentError: { push: 0.06, sms: 0.02 } }, /permanentError\.email/],
    [{ dailyRecipients: -5 }, /dailyRecipients/],
    [{ attemptBudget: 2.5 }, /attemptBudget/],
    [{ peakFactor: 'five' }, /peakFactor/],
    [{ typo: 1 }, /typo|unrecognized/i],
  ])('rejects %j with a message naming the field', (overrides, message) => {
    let caught: unknown;
    try {
      withAssumptions(overrides);
    } catch (error) {
      caught = error;
    }
    expect(isAssumptionsError(caught)).toBe(true);
    expect((caught as Error).message).toMatch(message);
  });

  it('rejects a non-object', () => {
    expect(() => withAssumptions([1])).toThrow(/expected an object/);
    expect(() => runScale({})).toThrow(/invalid assumptions/);
  });
});
