import type { StepJobData } from './job-data';
import { runLaneJob } from './lane-job-runner';
import { LaneSemaphore } from './lane-semaphore';
import type { StepResult, StepRun } from './step-processor';

const step = (n: number): StepJobData => ({ id: `n${n}`, rh: `r${n}`, priority: 'urgent', step: 1, channel: 'push' });

/**
 * A processor standing for the real one's contract: a step that finished answers `terminal`
 * when run again (begin-attempt), so only the unfinished are processed anew.
 */
function processor(failing: Set<string>) {
  const finished = new Set<string>();
  const calls: { id: string; run: StepRun }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const process = async (data: StepJobData, run: StepRun): Promise<StepResult> => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      await Promise.resolve();
      if (finished.has(data.id)) return { action: 'ignored', reason: 'terminal' };
      calls.push({ id: data.id, run });
      if (failing.has(data.id)) throw new Error(`redis blip on ${data.id}`);
      finished.add(data.id);
      return { action: 'called', outcome: 'delivered', channel: data.channel };
    } finally {
      inFlight -= 1;
    }
  };
  return { process, calls, maxInFlight: () => maxInFlight };
}

describe('runLaneJob', () => {
  it('a step job: one step, holding a slot, with its job id and the lease', async () => {
    const p = processor(new Set());
    const result = await runLaneJob({ id: 'j-1', data: step(1) }, { process: p.process, semaphore: new LaneSemaphore(2), leaseMs: 15_000 });
    expect(result).toEqual({ action: 'called', outcome: 'delivered', channel: 'push' });
    expect(p.calls).toEqual([{ id: 'n1', run: { jobId: 'j-1', leaseMs: 15_000 } }]);
  });

  it('a batch job: every item, at most the semaphore capacity at once', async () => {
    const p = processor(new Set());
    const steps = [1, 2, 3, 4, 5].map(step);
    const result = await runLaneJob({ id: '7', data: { steps } }, { process: p.process, semaphore: new LaneSemaphore(2), leaseMs: 1 });
    expect(result).toMatchObject({ action: 'batch', results: steps.map(() => ({ action: 'called' })) });
    expect(p.calls.map((c) => c.id).sort()).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    expect(p.maxInFlight()).toBe(2);
  });

  it('one item throws: the job throws naming it after the others finished; the re-run repeats none of them', async () => {
    const failing = new Set(['n2']);
    const p = processor(failing);
    const job = { id: '8', data: { steps: [1, 2, 3].map(step) } };
    const runner = { process: p.process, semaphore: new LaneSemaphore(8), leaseMs: 1 };
    const error = await runLaneJob(job, runner).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AggregateError);
    expect((error as AggregateError).message).toMatch(/^1 of 3 steps failed \(n2\): redis blip on n2/);
    expect(p.calls.map((c) => c.id).sort()).toEqual(['n1', 'n2', 'n3']);

    failing.clear();
    await expect(runLaneJob(job, runner)).resolves.toEqual({
      action: 'batch',
      results: [
        { action: 'ignored', reason: 'terminal' },
        { action: 'called', outcome: 'delivered', channel: 'push' },
        { action: 'ignored', reason: 'terminal' },
      ],
    });
    expect(p.calls.map((c) => c.id).sort()).toEqual(['n1', 'n2', 'n2', 'n3']);
  });

  it('a rate-limited lane splits a batch into single step jobs instead of running it', async () => {
    const p = processor(new Set());
    const split: string[][] = [];
    const runner = {
      process: p.process,
      semaphore: new LaneSemaphore(2),
      leaseMs: 1,
      split: (s: StepJobData[]) => Promise.resolve(void split.push(s.map((x) => x.id))),
    };
    await expect(runLaneJob({ id: '9', data: { steps: [1, 2].map(step) } }, runner)).resolves.toEqual({ action: 'split', steps: 2 });
    expect(split).toEqual([['n1', 'n2']]);
    expect(p.calls).toEqual([]);
  });

  it('an urgent lane tells which steps it takes up, before they run: a step, a batch, not a split batch (its single jobs will)', async () => {
    const p = processor(new Set());
    const taken: string[][] = [];
    const takenUp = (s: StepJobData[]) => void taken.push(s.map((x) => x.id));
    const runner = { process: p.process, semaphore: new LaneSemaphore(2), leaseMs: 1, takenUp };
    await runLaneJob({ id: '1', data: step(1) }, runner);
    await runLaneJob({ id: '2', data: { steps: [2, 3].map(step) } }, runner);
    await runLaneJob({ id: '3', data: { steps: [4, 5].map(step) } }, { ...runner, split: () => Promise.resolve() });
    expect(taken).toEqual([['n1'], ['n2', 'n3']]);
  });
});
