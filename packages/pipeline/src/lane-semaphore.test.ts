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

  it('refuses a capacity below 1', () => {
    expect(() => new LaneSemaphore(0)).toThrow(RangeError);
  });
});
