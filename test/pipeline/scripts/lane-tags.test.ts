import { LaneFairShare, laneTagsKey, priorityOf } from '@notify/pipeline';
import { useScriptRedis } from './script-redis';

/**
 * tag-lane-1 and advance-lane-1 against a real Redis: the tags the lane keeps (fair-share/lane-tags.ts),
 * the priority they give, the virtual time that only moves up.
 */
const { redis } = useScriptRedis();
let tags: LaneFairShare;
let n = 0;
/** A fresh lane per test (its own tags hash). */
const lane = () => ({ qualifiedName: `{notify}:q:test-lane-${(n += 1)}`, name: `test-lane-${n}` });
beforeAll(() => {
  tags = new LaneFairShare(redis());
});

it("tags a tenant's jobs one after another from where the last finished, a newcomer at V", async () => {
  const l = lane();
  expect(await tags.tag(l, 'a', 64, 1)).toEqual({ start: 0, priority: 1 });
  expect(await tags.tag(l, 'a', 64, 1)).toEqual({ start: 64, priority: priorityOf(64, 0) });
  expect(await tags.tag(l, 'b', 5, 1)).toEqual({ start: 0, priority: 1 });
  expect(await redis().hgetall(laneTagsKey(l.qualifiedName))).toEqual({ 'f:a': '128', 'w:a': '1', 'f:b': '5', 'w:b': '1' });
});

it('moves V up to the start taken, never back; a tenant behind V starts at V (no credit)', async () => {
  const l = lane();
  await tags.tag(l, 'a', 10, 1);
  tags.started(l, 100);
  tags.started(l, 40);
  await tags.advance();
  expect(await redis().hget(laneTagsKey(l.qualifiedName), 'v')).toBe('100');
  tags.started(l, 50);
  await tags.advance();
  expect(await redis().hget(laneTagsKey(l.qualifiedName), 'v')).toBe('100');
  expect(await tags.tag(l, 'a', 1, 1)).toEqual({ start: 100, priority: 1 });
  expect(await tags.tag(l, 'late', 1, 1)).toEqual({ start: 100, priority: 1 });
});

it('divides by the weight; weight 0 takes the one last given for the tenant in the lane (else 1)', async () => {
  const l = lane();
  await tags.tag(l, 'heavy', 8, 4);
  expect((await tags.tag(l, 'heavy', 8, 0)).start).toBe(2);
  expect((await tags.tag(l, 'new', 8, 0)).start).toBe(0);
  expect((await tags.tag(l, 'new', 8, 0)).start).toBe(8);
  // A backlog in steps: how far the finish tag is ahead of V, times the weight.
  expect(await tags.backlog(l)).toEqual(
    new Map([
      ['heavy', 16],
      ['new', 16],
    ]),
  );
});

it('keeps fractions exactly enough: three thirds make one', async () => {
  const l = lane();
  for (let i = 0; i < 3; i += 1) await tags.tag(l, 'a', 1, 3);
  expect((await tags.tag(l, 'a', 1, 3)).start).toBeCloseTo(1, 12);
});
