import { MAX_JOB_PRIORITY, PRIORITY_UNITS_PER_STEP, backlogOf, priorityOf, tagsOf } from './lane-tags';

/** A lane's tags as the Lua scripts keep them: V, and each tenant's finish tag. */
function lane() {
  let v = 0;
  const finish = new Map<string, number>();
  return {
    add(tenant: string, steps: number, weight = 1) {
      const tags = tagsOf(v, finish.get(tenant) ?? 0, steps, weight);
      finish.set(tenant, tags.finish);
      return { start: tags.start, priority: priorityOf(tags.start, v) };
    },
    take(start: number) {
      v = Math.max(v, start);
    },
    get v() {
      return v;
    },
    finishOf: (tenant: string) => finish.get(tenant) ?? 0,
  };
}

describe('fair-share tags', () => {
  it("a tenant's jobs start where its previous one finished, by steps over weight", () => {
    expect(tagsOf(0, 0, 64, 1)).toEqual({ start: 0, finish: 64 });
    expect(tagsOf(0, 64, 64, 1)).toEqual({ start: 64, finish: 128 });
    expect(tagsOf(0, 0, 64, 4)).toEqual({ start: 0, finish: 16 });
  });

  it('a tenant arriving late starts at the virtual time, not at 0 (no credit hoarded)', () => {
    const l = lane();
    l.add('a', 10);
    l.take(100);
    expect(l.add('b', 1).start).toBe(100);
    // A tenant whose finish tag fell behind V also starts at V.
    expect(l.add('a', 1).start).toBe(100);
  });

  it("a newcomer's job ranks ahead of a flooding tenant's backlog", () => {
    const l = lane();
    const flood = Array.from({ length: 100 }, () => l.add('a', 10));
    const newcomer = l.add('b', 10);
    expect(newcomer.priority).toBe(1);
    expect(flood.filter((j) => j.priority < newcomer.priority)).toHaveLength(0);
    expect(flood.filter((j) => j.priority === newcomer.priority)).toHaveLength(1);
  });

  it('weights share a lane in proportion: weight 3 gets three steps for each of weight 1', () => {
    const l = lane();
    const jobs = [
      ...Array.from({ length: 30 }, () => ({ t: 'heavy', ...l.add('heavy', 1, 3) })),
      ...Array.from({ length: 30 }, () => ({ t: 'light', ...l.add('light', 1, 1) })),
    ];
    // Served by start tag (BullMQ: lower priority first, then arrival): the first 20 are 15 and 5.
    const order = [...jobs].sort((x, y) => x.start - y.start).slice(0, 20);
    expect(order.filter((j) => j.t === 'heavy').length).toBe(15);
  });

  it('priorities stay within BullMQ: at least 1, at most 2^21 − 1, in PRIORITY_UNITS_PER_STEP per step of lead', () => {
    expect(priorityOf(5, 10)).toBe(1);
    expect(priorityOf(10, 10)).toBe(1);
    expect(priorityOf(12.5, 10)).toBe(1 + 2.5 * PRIORITY_UNITS_PER_STEP);
    expect(priorityOf(10 + 1e9, 10)).toBe(MAX_JOB_PRIORITY);
    expect(MAX_JOB_PRIORITY).toBe(2 ** 21 - 1);
  });

  it("a tenant's backlog is its finish tag's lead over V in steps (times its weight)", () => {
    const l = lane();
    for (let i = 0; i < 5; i += 1) l.add('a', 10, 2);
    expect(backlogOf(l.v, l.finishOf('a'), 2)).toBe(50);
    l.take(20);
    expect(backlogOf(l.v, l.finishOf('a'), 2)).toBe(10);
    l.take(30);
    expect(backlogOf(l.v, l.finishOf('a'), 2)).toBe(0);
  });
});
