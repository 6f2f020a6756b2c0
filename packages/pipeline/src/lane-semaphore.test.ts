import { LaneSemaphore } from './lane-semaphore';

/** Lets queued callbacks run until `cond` holds (bounded), then checks it. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 1_000 && !cond(); i += 1) await new Promise((resolve) => setImmediate(resolve));
  expect(cond()).toBe(true);
}

/** A task that runs until released from outside. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('LaneSemaphore', () => {
  it('runs at most capacity tasks at once, the others in arrival order as slots free up', async () => {
    const semaphore = new LaneSemaphore(2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      semaphore.run(async () => {
        started.push(i);
        await g.opened;
        return i;
      }),
    );
    await until(() => started.length === 2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    expect([semaphore.inUse, semaphore.queued]).toEqual([2, 2]);
    gates[1]?.open();
    await runs[1];
    await until(() => started.length === 3);
    expect(started).toEqual([0, 1, 2]);
    gates[0]?.open();
    gates[2]?.open();
    gates[3]?.open();
    await expect(Promise.all(runs)).resolves.toEqual([0, 1, 2, 3]);
    expect([semaphore.inUse, semaphore.queued]).toEqual([0, 0]);
  });

  it('a task that throws gives its slot back', async () => {
    const semaphore = new LaneSemaphore(1);
    await expect(semaphore.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(semaphore.run(() => Promise.resolve('next'))).resolves.toBe('next');
    expect(semaphore.inUse).toBe(0);
  });

  it('a lowered limit lets the calls in flight finish and starts none until fewer run; a raised one starts waiters at once', async () => {
    const semaphore = new LaneSemaphore(3);
    const gates = Array.from({ length: 6 }, () => gate());
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      semaphore.run(async () => {
        started.push(i);
        await g.opened;
      }),
    );
    await until(() => started.length === 3);
    semaphore.setLimit(1);
    expect([semaphore.limit, semaphore.inUse, semaphore.queued]).toEqual([1, 3, 3]);
    gates[0]?.open();
    gates[1]?.open();
    await Promise.all([runs[0], runs[1]]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    expect(semaphore.inUse).toBe(1);
    gates[2]?.open();
    await until(() => started.length === 4);
    expect([semaphore.inUse, semaphore.queued]).toEqual([1, 2]);
    semaphore.setLimit(10);
    expect(semaphore.limit).toBe(3);
    await until(() => started.length === 6);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    for (const g of gates) g.open();
    await Promise.all(runs);
    expect([semaphore.inUse, semaphore.queued]).toEqual([0, 0]);
  });

  it('tells how long the first caller in line has waited, from its own clock', async () => {
    let now = 1_000;
    const semaphore = new LaneSemaphore(1, () => now);
    const g = gate();
    const first = semaphore.run(() => g.opened);
    expect(semaphore.longestWaitMs).toBe(0);
    const second = semaphore.run(() => Promise.resolve());
    now = 1_040;
    const third = semaphore.run(() => Promise.resolve());
    now = 1_100;
    expect(semaphore.longestWaitMs).toBe(100);
    g.open();
    await Promise.all([first, second, third]);
    expect([semaphore.queued, semaphore.longestWaitMs]).toEqual([0, 0]);
  });

  it('refuses a capacity below 1', () => {
    expect(() => new LaneSemaphore(0)).toThrow(RangeError);
  });
});
