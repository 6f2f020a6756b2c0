import { eventLoopDelaySampler, LoadShedder, type LoopDelaySampler } from './load-shedder';
import { ManualTime } from './manual-time';

function fakeSampler(values: number[]): LoopDelaySampler & { stopped: boolean } {
  return {
    stopped: false,
    sample: () => values.shift() ?? 0,
    stop() {
      this.stopped = true;
    },
  };
}

describe('LoadShedder', () => {
  it('refuses new work for a window whose loop delay is above the threshold, and admits again when it falls', async () => {
    const time = new ManualTime();
    const windows: number[] = [];
    const sampler = fakeSampler([5, 60, 12]);
    const shedder = new LoadShedder({ maxLoopDelayMs: 40, maxInFlight: 0, windowMs: 250, sampler, timer: time, onWindow: (ms) => windows.push(ms) });
    expect(shedder.admit()).toBeUndefined();
    await time.advanceBy(250);
    expect(shedder.admit()).toBeUndefined();
    await time.advanceBy(250);
    expect(shedder.loopDelayMs).toBe(60);
    expect(shedder.admit()).toBe('loop_delay');
    await time.advanceBy(250);
    expect(shedder.admit()).toBeUndefined();
    expect(windows).toEqual([5, 60, 12]);
    shedder.stop();
    expect(sampler.stopped).toBe(true);
    expect(time.pending()).toBe(0);
  });

  it('caps admitted requests in flight; leave() frees a place', () => {
    const shedder = new LoadShedder({ maxLoopDelayMs: 0, maxInFlight: 2, sampler: fakeSampler([]), timer: new ManualTime() });
    expect(shedder.admit()).toBeUndefined();
    expect(shedder.admit()).toBeUndefined();
    expect(shedder.admit()).toBe('in_flight');
    expect(shedder.inFlight).toBe(2);
    shedder.leave();
    expect(shedder.admit()).toBeUndefined();
    shedder.stop();
  });

  it('a threshold of 0 never sheds on loop delay', async () => {
    const time = new ManualTime();
    const shedder = new LoadShedder({ maxLoopDelayMs: 0, maxInFlight: 0, windowMs: 100, sampler: fakeSampler([500]), timer: time });
    await time.advanceBy(100);
    expect(shedder.admit()).toBeUndefined();
    shedder.stop();
  });

  it('the real sampler reports a loop that is late on most ticks, net of its resolution', async () => {
    const sampler = eventLoopDelaySampler(5);
    sampler.sample();
    // Ten turns of the loop, each held for 30 ms: every tick of the 5 ms timer is ~30 ms late.
    for (let i = 0; i < 10; i += 1) {
      const until = performance.now() + 30;
      while (performance.now() < until) {
        /* hold the loop */
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const delay = sampler.sample();
    sampler.stop();
    expect(delay).toBeGreaterThan(15);
  });
});
