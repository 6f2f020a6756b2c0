import fc from 'fast-check';
import { runDispatch } from './dispatch-model';
import { runRecipientDay } from './recipient-day-model';

/**
 * An independent, deliberately plain restatement of the seed's dispatch model: BigInt LCG,
 * string channel names, no shared helpers. If the package's model drifts from the seed's
 * stream discipline (which draws happen, in which order), this disagrees.
 */
function referenceDispatch(layout: 'single' | 'parallel' | 'cascade', seed: number, n: number, multiplier: number, down: string | null) {
  let x = BigInt(seed) % 4294967296n;
  const draw = () => {
    x = (x * 1103515245n + 12345n) % 4294967296n;
    return Number(x) / 4294967296;
  };
  const names = ['push', 'sms', 'email'];
  const share = [0.55, 0.25, 0.2];
  const transient = [0.05, 0.02, 0.01].map((p) => Math.min(1, p * multiplier));
  const permanent = [0.06, 0.02, 0.01].map((p) => Math.min(1, p * multiplier));
  let delivered = 0;
  let calls = 0;
  let duplicates = 0;
  let pauses = 0;
  for (let i = 0; i < n; i += 1) {
    let u = draw();
    let preferred = 2;
    if (u < share[0]!) preferred = 0;
    else {
      u -= share[0]!;
      if (u < share[1]!) preferred = 1;
    }
    const dead = [false, false, false];
    for (let c = 0; c < 3; c += 1) {
      dead[c] = names[c] === down ? true : draw() < permanent[c]!;
    }
    const order = layout === 'single' ? [preferred, preferred, preferred] : [preferred, ...[0, 1, 2].filter((c) => c !== preferred)];
    let ok = 0;
    let firstAt = -1;
    for (let t = 0; t < 3; t += 1) {
      const c = order[t]!;
      calls += 1;
      if (dead[c]) continue;
      if (draw() >= transient[c]!) {
        ok += 1;
        if (firstAt < 0) firstAt = layout === 'parallel' ? 0 : t;
        if (layout !== 'parallel') break;
      }
    }
    if (ok > 0) {
      delivered += 1;
      duplicates += ok - 1;
      pauses += firstAt;
    }
  }
  return { delivered, calls, duplicates, pauses };
}

const seedArb = fc.integer({ min: 0, max: 4294967295 });
const sizeArb = fc.integer({ min: 1, max: 3000 });
// Up to 16.5: every product with the BI rates stays <= 1 (the model rejects more).
const multiplierArb = fc.oneof(fc.constantFrom(0, 1, 2, 3), fc.double({ min: 0, max: 16.5, noNaN: true }));
const downArb = fc.constantFrom(null, 'push', 'sms', 'email');

describe('dispatch model against an independent re-implementation', () => {
  it('agrees on deliveries, calls, duplicates and pauses for every layout', () => {
    fc.assert(
      fc.property(seedArb, sizeArb, multiplierArb, downArb, (seed, n, multiplier, down) => {
        for (const layout of ['single', 'parallel', 'cascade'] as const) {
          const ours = runDispatch({ layout, seed, notifications: n, multiplier, ...(down === null ? {} : { down }) });
          const reference = referenceDispatch(layout, seed, n, multiplier, down);
          expect({
            delivered: ours.delivered,
            calls: ours.externalCalls,
            duplicates: ours.duplicates,
            pauses: ours.pauses,
          }).toEqual(reference);
          expect(ours.meanDeliverySeconds).toBe(reference.delivered === 0 ? null : (reference.pauses / reference.delivered) * 30);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('policies that only skip doomed calls never change who is delivered', () => {
    fc.assert(
      fc.property(seedArb, sizeArb, multiplierArb, fc.constantFrom('push', 'sms', 'email' as const), (seed, n, multiplier, down) => {
        const base = { layout: 'cascade', seed, notifications: n, multiplier, down } as const;
        const seedRun = runDispatch(base);
        const breaker = runDispatch({ ...base, breakerAware: true });
        expect(breaker.delivered).toBe(seedRun.delivered);
        expect(breaker.externalCalls).toBeLessThanOrEqual(seedRun.externalCalls);
        const noWait = runDispatch({ ...base, waitPolicy: 'after-transient' });
        expect(noWait.delivered).toBe(seedRun.delivered);
        expect(noWait.pauses).toBeLessThanOrEqual(seedRun.pauses);
      }),
      { numRuns: 40 },
    );
  });

  it('suppression never changes deliveries and never adds calls', () => {
    fc.assert(
      fc.property(seedArb, sizeArb, multiplierArb, fc.integer({ min: 1, max: 12 }), (seed, n, multiplier, perRecipient) => {
        const base = { seed, notifications: n, multiplier, perRecipient };
        const plain = runRecipientDay(base);
        const suppressed = runRecipientDay({ ...base, suppression: true });
        expect(suppressed.delivered).toBe(plain.delivered);
        expect(suppressed.externalCalls).toBeLessThanOrEqual(plain.externalCalls);
        expect(suppressed.suppressionEntries).toBeLessThanOrEqual(plain.recipients * 3);
      }),
      { numRuns: 40 },
    );
  });
});
