import { breakerTimes } from './breaker-timeline';
import { preferredChannel, TWO_PUSH_OUTAGE, TWO_PUSH_PROVIDERS, TWO_PUSH_VIEWS, view } from './failover-fixture';
import { failoverFigures, summarize } from './outcomes';

it('summarizes delivery, calls, calls to the dead channel and latency from the records', () => {
  const outage = { channel: 'push' as const, downAt: 100, upAt: 200 };
  const figures = summarize(
    [
      view({ acceptedAt: 50, latencyMs: 10, attempts: [{ step: 1, channel: 'push', kind: 'send', startedAt: 55, outcome: 'delivered' }] }),
      view({
        acceptedAt: 120,
        latencyMs: 3_010,
        attempts: [
          { step: 1, channel: 'push', kind: 'send', startedAt: 121, outcome: 'transient' },
          { step: 2, channel: 'sms', kind: 'send', startedAt: 3_121, outcome: 'delivered' },
        ],
      }),
      view({
        acceptedAt: 150,
        latencyMs: 20,
        plan: ['sms', 'email', 'push'],
        skips: [{ channel: 'push', reason: 'breaker-open', at: 150 }],
        attempts: [{ step: 1, channel: 'sms', kind: 'send', startedAt: 151, outcome: 'delivered' }],
      }),
      view({
        acceptedAt: 160,
        status: 'failed',
        failureReason: 'all-channels-permanent',
        priority: 'reminder',
        attempts: [{ step: 1, channel: 'email', kind: 'send', startedAt: 161, outcome: 'permanent' }],
      }),
    ],
    5,
    preferredChannel,
    outage,
  );
  expect(figures).toMatchObject({
    notifications: 5,
    accepted: 4,
    delivered: 3,
    failed: 1,
    deliveryRate: 0.6,
    externalCalls: 5,
    callsPerNotification: 1,
    wastedCalls: 1,
    breakerSkips: 1,
    failureReasons: { 'all-channels-permanent': 1 },
  });
  expect(figures.urgentByPreferred.push.before).toMatchObject({ count: 1, meanMs: 10 });
  expect(figures.urgentByPreferred.push.during).toMatchObject({ count: 1, meanMs: 3010 });
  expect(figures.urgentByPreferred.sms.during).toMatchObject({ count: 1, meanMs: 20 });
});

it('times the breaker from the outage: first open after the kill, first close after the restore', () => {
  const changes = [
    { at: 10, state: 'closed' as const },
    { at: 1_400, state: 'open' as const },
    { at: 1_900, state: 'half-open' as const },
    { at: 1_910, state: 'open' as const },
    { at: 5_300, state: 'half-open' as const },
    { at: 5_320, state: 'closed' as const },
  ];
  expect(breakerTimes(changes, 1_000, 5_000)).toEqual({ openedAfterMs: 400, closedAfterMs: 320, opens: 2 });
  expect(breakerTimes([{ at: 10, state: 'closed' }], 1_000, 5_000)).toEqual({ opens: 0 });
});

it('with two push providers, counts only the killed one as wasted, and where push-first notifications went during the outage', () => {
  expect(summarize(TWO_PUSH_VIEWS, 5, preferredChannel, TWO_PUSH_OUTAGE).wastedCalls).toBe(2);
  expect(failoverFigures(TWO_PUSH_VIEWS, TWO_PUSH_PROVIDERS, preferredChannel, TWO_PUSH_OUTAGE)).toEqual({
    providers: [
      { name: 'push-a', calls: 3, deliveries: 1, callsWhileDown: 2, deliveriesWhileDown: 0 },
      { name: 'push-b', calls: 2, deliveries: 2, callsWhileDown: 2, deliveriesWhileDown: 2 },
    ],
    preferredDuringOutage: 3,
    deliveredOnChannel: 2,
    deliveredElsewhere: 1,
  });
});
