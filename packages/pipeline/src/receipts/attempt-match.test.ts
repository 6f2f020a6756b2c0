import type { AttemptRecord } from '@notify/core';
import type { ProviderIdentity } from '@notify/providers';
import { matchAttempt } from './attempt-match';

const email: ProviderIdentity = { name: 'email-ses', kind: 'smtp', channel: 'email', echoesIdempotencyKey: false };
const attempt = (step: number, fields: Partial<AttemptRecord>): AttemptRecord => ({ step, channel: 'email', kind: 'send', startedAt: step, ...fields });

describe('matchAttempt', () => {
  it('picks the newest attempt that provider made on its channel with the message id', () => {
    const attempts = [
      attempt(1, { provider: 'email-ses', providerMessageId: 'm-1' }),
      attempt(2, { provider: 'email-ses', kind: 'reconcile', providerMessageId: 'm-1' }),
    ];
    expect(matchAttempt(attempts, 'm-1', email)).toEqual({ attempt: attempts[1] });
  });

  it("another provider's attempt is refused when this provider made one of the notification, else unmatched", () => {
    const other = attempt(2, { provider: 'email-backup', providerMessageId: 'm-2' });
    expect(matchAttempt([attempt(1, { provider: 'email-ses', outcome: 'transient' }), other], 'm-2', email)).toEqual({ status: 'refused', mismatch: true });
    expect(matchAttempt([other], 'm-2', email)).toEqual({ status: 'unmatched', mismatch: true });
    expect(matchAttempt([other], 'never', email)).toEqual({ status: 'unmatched', mismatch: false });
  });

  it('the same provider name on another channel is a mismatch; an attempt without a provider is its channel default simulator', () => {
    const sms = attempt(1, { channel: 'sms', provider: 'email-ses', providerMessageId: 'm-3' });
    expect(matchAttempt([sms], 'm-3', email)).toMatchObject({ mismatch: true });
    const legacy = attempt(1, { providerMessageId: 'notify-x' });
    expect(matchAttempt([legacy], 'notify-x', { name: 'email', kind: 'simulator', channel: 'email', echoesIdempotencyKey: true })).toEqual({ attempt: legacy });
  });
});
