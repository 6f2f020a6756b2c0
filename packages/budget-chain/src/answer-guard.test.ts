import { answerBy } from './answer-guard';
import { Deadline } from './deadline';
import { ManualTime } from './manual-time';

describe('answerBy', () => {
  it('answers at expiry minus the reserve while the work still runs, and only once', async () => {
    const time = new ManualTime();
    const deadline = new Deadline({ budgetMs: 200, step: 'tracking', clock: time, timer: time });
    const answers: number[] = [];
    const guard = answerBy(deadline, 15, () => answers.push(time.now()));
    await time.advanceBy(184);
    expect(answers).toEqual([]);
    await time.advanceBy(1);
    expect(answers).toEqual([185]);
    expect(guard.fired).toBe(true);
    // The work finishing later must not answer a second time.
    expect(guard.claim()).toBe(false);
    deadline.dispose();
  });

  it('stays silent when the work claims the answer first, and leaves no timer behind', async () => {
    const time = new ManualTime();
    const deadline = new Deadline({ budgetMs: 200, clock: time, timer: time });
    let fired = false;
    const guard = answerBy(deadline, 10, () => {
      fired = true;
    });
    await time.advanceBy(80);
    expect(guard.claim()).toBe(true);
    deadline.dispose();
    expect(time.pending()).toBe(0);
    await time.advanceBy(200);
    expect(fired).toBe(false);
    expect(guard.fired).toBe(false);
  });

  it('answers at once when the reserve is larger than what is left, and never for an unbounded deadline', async () => {
    const time = new ManualTime();
    const short = new Deadline({ budgetMs: 5, clock: time, timer: time });
    let early = 0;
    answerBy(short, 10, () => {
      early += 1;
    });
    await time.advanceBy(0);
    expect(early).toBe(1);
    short.dispose();
    const unbounded = new Deadline({ budgetMs: Number.POSITIVE_INFINITY, clock: time, timer: time });
    const guard = answerBy(unbounded, 10, () => {
      early += 1;
    });
    expect(time.pending()).toBe(0);
    expect(guard.claim()).toBe(true);
  });
});
