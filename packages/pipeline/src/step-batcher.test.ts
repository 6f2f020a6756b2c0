import { StepBatcher, type StepBatchConfig } from './step-batcher';
import type { StepJobData } from './job-data';

const step = (n: number, channel: StepJobData['channel'] = 'push'): StepJobData => ({ id: `n${n}`, rh: `r${n}`, priority: 'urgent', step: 1, channel });

/** A batcher whose adds are recorded (and can be made to fail or wait). */
function recording(config: StepBatchConfig) {
  const adds: string[][] = [];
  const delays: number[] = [];
  let fail: Error | undefined;
  const batcher = new StepBatcher(
    config,
    (items, delayMs) => {
      adds.push(items.map((i) => i.id));
      delays.push(delayMs);
      return fail ? Promise.reject(fail) : Promise.resolve();
    },
    (data) => `${data.channel}/${data.priority}`,
  );
  return { batcher, adds, delays, failWith: (error: Error) => (fail = error) };
}

describe('StepBatcher', () => {
  it('one add per lane for the items that arrive within the window; each waiter resolves after it', async () => {
    const { batcher, adds } = recording({ max: 64, windowMs: 5 });
    const done = [batcher.add(step(1)), batcher.add(step(2)), batcher.add(step(3, 'sms')), batcher.add(step(4))];
    expect(adds).toEqual([]);
    await Promise.all(done);
    expect(adds.sort()).toEqual([['n1', 'n2', 'n4'], ['n3']]);
  });

  it('a lane that reaches max items is added at once, without waiting for the window', async () => {
    const { batcher, adds } = recording({ max: 3, windowMs: 3_600_000 });
    const first = [1, 2, 3, 4, 5, 6].map((n) => batcher.add(step(n)));
    await Promise.all(first);
    expect(adds).toEqual([
      ['n1', 'n2', 'n3'],
      ['n4', 'n5', 'n6'],
    ]);
    const seventh = batcher.add(step(7));
    await batcher.flushAll();
    await seventh;
    expect(adds[2]).toEqual(['n7']);
  });

  it('a failed add rejects every waiter of that batch, and only those', async () => {
    const { batcher, adds, failWith } = recording({ max: 2, windowMs: 3_600_000 });
    const ok = [batcher.add(step(1)), batcher.add(step(2))];
    await Promise.all(ok);
    failWith(new Error('Connection is closed.'));
    const failing = [batcher.add(step(3)), batcher.add(step(4))];
    const settled = await Promise.allSettled(failing);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect((settled[0] as PromiseRejectedResult).reason).toMatchObject({ message: 'Connection is closed.' });
    expect(adds).toEqual([
      ['n1', 'n2'],
      ['n3', 'n4'],
    ]);
  });

  it('max 1 or window 0: each item is added alone, at once', async () => {
    for (const config of [
      { max: 1, windowMs: 2 },
      { max: 64, windowMs: 0 },
    ]) {
      const { batcher, adds } = recording(config);
      const first = batcher.add(step(1));
      expect(adds).toEqual([['n1']]);
      await first;
      await batcher.add(step(2));
      expect(adds).toEqual([['n1'], ['n2']]);
    }
  });

  it('steps of one lane but another delay go to another job, added with that delay (the cascade: each waits its own)', async () => {
    const { batcher, adds, delays } = recording({ max: 64, windowMs: 5 });
    await Promise.all([batcher.add(step(1), 300), batcher.add(step(2)), batcher.add(step(3), 300), batcher.add(step(4), 30_000)]);
    const byDelay = new Map(adds.map((ids, i) => [delays[i], ids]));
    expect(byDelay).toEqual(
      new Map([
        [300, ['n1', 'n3']],
        [0, ['n2']],
        [30_000, ['n4']],
      ]),
    );
  });

  it('max 1 or window 0: an item with a delay is added alone with it', async () => {
    const { batcher, adds, delays } = recording({ max: 64, windowMs: 0 });
    await batcher.add(step(1), 250);
    expect(adds).toEqual([['n1']]);
    expect(delays).toEqual([250]);
  });
});
