import { Deadline } from './deadline';
import { DependencyFailedError, isCancelled, isDeadlineExceeded } from './errors';
import { ManualTime } from './manual-time';
import type { StepEvent } from './observer';
import { runSequence } from './run-sequence';
import { runStep } from './run-step';
import { createSplitPolicy } from './split-policy';

function setup(budgetMs = 180): { time: ManualTime; branch: Deadline; events: StepEvent[] } {
  const time = new ManualTime();
  return { time, branch: new Deadline({ budgetMs, step: 'pricing', clock: time, timer: time }), events: [] };
}

describe('runStep', () => {
  it('answers within min(share, remaining) and reports it', async () => {
    const { time, branch, events } = setup();
    const outcome = await time.settle(
      runStep(
        branch,
        'tariff',
        60,
        async ({ signal, timeoutMs }) => {
          expect(timeoutMs).toBe(60);
          await time.sleep(6, signal);
          return 'tariff-record';
        },
        { policy: 'weighted', observer: { onStep: (e) => events.push(e) } },
      ),
    );
    expect(outcome).toMatchObject({ ok: true, value: 'tariff-record', elapsedMs: 6, timeoutMs: 60, called: true });
    expect(events).toEqual([{ step: 'tariff', policy: 'weighted', outcome: 'ok', durationMs: 6 }]);
  });

  it('stops waiting at the share even when the work ignores its signal, naming the step', async () => {
    const { time, branch } = setup();
    const outcome = await time.settle(runStep(branch, 'tariff', 60, () => time.sleep(400).then(() => 'late')));
    expect(outcome.ok).toBe(false);
    expect(outcome).toMatchObject({ kind: 'deadline_exceeded', elapsedMs: 60 });
    if (!outcome.ok) expect(outcome.error).toMatchObject({ code: 'DEADLINE_EXCEEDED', step: 'tariff', budgetMs: 60 });
    await time.runAll();
  });

  it('does not call a step that has no time left', async () => {
    const { time, branch } = setup(10);
    await time.advanceBy(10);
    const fn = jest.fn(async () => 'never');
    const outcome = await runStep(branch, 'measurement', 120, fn);
    expect(fn).not.toHaveBeenCalled();
    expect(outcome).toMatchObject({ ok: false, kind: 'deadline_exceeded', called: false, elapsedMs: 0 });
  });

  it('reports a cancelled caller as a cancellation of the running step', async () => {
    const { time, branch } = setup();
    const pending = runStep(branch, 'tariff', 60, ({ signal }) => time.sleep(30, signal));
    await time.advanceBy(5);
    branch.cancel('client disconnected');
    const outcome = await pending;
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(isCancelled(outcome.error)).toBe(true);
  });

  it('classifies a dependency failure as an error, not a timeout', async () => {
    const { branch } = setup();
    const outcome = await runStep(branch, 'tariff', 60, async () => {
      throw new DependencyFailedError('tariff', 'tariff answered 500', { upstreamStatus: 500 });
    });
    expect(outcome).toMatchObject({ ok: false, kind: 'error' });
  });
});

describe('runSequence', () => {
  const policy = createSplitPolicy('weighted', { expectedMs: { tariff: 6, measurement: 12 } });

  it('plans shares once and lets a later step use what the earlier one left', async () => {
    const { time, branch } = setup();
    const result = await time.settle(
      runSequence(branch, policy, [
        { step: 'tariff', run: ({ signal }) => time.sleep(80, signal).then(() => 1) },
        { step: 'measurement', run: ({ signal, timeoutMs }) => time.sleep(12, signal).then(() => timeoutMs) },
      ] as const),
    );
    expect(result.shares).toEqual({ tariff: 60, measurement: 120 });
    const [tariff, measurement] = result.outcomes;
    expect(tariff).toMatchObject({ ok: false, kind: 'deadline_exceeded', elapsedMs: 60 });
    expect(measurement).toMatchObject({ ok: true, value: 120 });
  });

  it('with stopOnFailure, skips the rest as cancelled without calling them', async () => {
    const { time, branch } = setup();
    const second = jest.fn(async () => 2);
    const result = await time.settle(
      runSequence(
        branch,
        policy,
        [
          { step: 'tariff', run: ({ signal }) => time.sleep(80, signal).then(() => 1) },
          { step: 'measurement', run: second },
        ] as const,
        { stopOnFailure: true },
      ),
    );
    expect(second).not.toHaveBeenCalled();
    expect(result.outcomes[1]).toMatchObject({ ok: false, kind: 'cancelled', called: false });
    expect(isDeadlineExceeded(result.outcomes[0].ok ? undefined : result.outcomes[0].error)).toBe(true);
  });
});
