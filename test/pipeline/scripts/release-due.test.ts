import { dueIndexKey, notificationKey, pendingIntakeKey, pendingUrgentKey } from '@notify/core';
import { loadReleaseScript } from '@notify/pipeline';
import { waitFor } from '@notify/platform-kit';
import { useScriptRedis, intakeArgs } from './script-redis';

const { redis, scripts } = useScriptRedis();
const release = (batch = 100) => loadReleaseScript(redis(), 0)(batch);
const idOf = (n: number) => `n${String(n).padStart(31, '0')}`;

async function redisNow(): Promise<number> {
  const [seconds, micros] = await redis().time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/** Intake as the api calls it for a notification due `aheadMs` from Redis's clock now. */
async function schedule(n: number, aheadMs: number): Promise<number> {
  const now = await redisNow();
  await expect(scripts().intake(intakeArgs({ id: idOf(n), now, sendAt: now + aheadMs }))).resolves.toMatchObject({
    code: 'created',
    status: 'scheduled',
    skipped: [],
  });
  return now + aheadMs;
}

/** Waits until Redis's clock has passed `at`. */
const passed = (at: number) => waitFor('Redis clock past the due time', async () => (await redisNow()) > at, 5_000, 5);

describe('intake-9.lua with sendAt', () => {
  it('ahead: writes a scheduled record into the due index, not the pending set, living past its wait', async () => {
    const now = Date.now();
    await expect(scripts().intake(intakeArgs({ now, sendAt: now + 3_600_000 }))).resolves.toMatchObject({ code: 'created', status: 'scheduled', skipped: [] });
    const id = intakeArgs().id;
    expect(await redis().hget(notificationKey(id), 'status')).toBe('scheduled');
    expect(await redis().zscore(pendingIntakeKey(), id)).toBeNull();
    expect(Number(await redis().zscore(dueIndexKey(), id))).toBeGreaterThan(Date.now());
    expect(await redis().ttl(notificationKey(id))).toBeGreaterThan(3_600 + 3_500);
    await expect(scripts().intake(intakeArgs({ now, sendAt: now + 3_600_000 }))).resolves.toMatchObject({
      code: 'duplicate',
      status: 'scheduled',
      firstChannel: undefined,
    });
  });

  it('passed by Redis clock: sent now (accepted, pending set)', async () => {
    await expect(scripts().intake(intakeArgs({ sendAt: Date.now() - 1_000 }))).resolves.toMatchObject({ code: 'created', status: 'accepted', skipped: [] });
    expect(await redis().zcard(dueIndexKey())).toBe(0);
  });
});

describe('release-due-3.lua', () => {
  it("hands the first step what intake decided: the expiry, the quiet hours and the category's opt-outs", async () => {
    const now = await redisNow();
    const quiet = { timeZone: 'Europe/Berlin', start: 22 * 60, end: 8 * 60 };
    const expiresAt = now + 3_600_000;
    await scripts().intake(intakeArgs({ id: idOf(7), now, sendAt: now + 300, expiresAt, quiet, category: 'campaigns' }));
    await passed(now + 300);
    const reply = await release();
    expect(reply.released.map((r) => r.extras)).toEqual([{ expiresAt, quiet, category: 'campaigns', tenant: intakeArgs().tenant }]);
  });

  it('releases only what is due by Redis clock: accepted, into the pending set, out of the index', async () => {
    const due = await schedule(1, 1_000);
    await schedule(2, 3_600_000);
    // Not due yet: nothing moves.
    expect(await release()).toMatchObject({ handled: 0, released: [] });
    await passed(due);
    const reply = await release();
    expect(reply.handled).toBe(1);
    expect(reply.released).toEqual([
      { id: idOf(1), channel: 'push', priority: 'urgent', rh: intakeArgs().rh, sendAt: due, extras: { tenant: intakeArgs().tenant } },
    ]);
    expect(reply.now).toBeGreaterThanOrEqual(due);
    expect(await redis().hmget(notificationKey(idOf(1)), 'status', 'releasedAt')).toEqual(['accepted', String(reply.now)]);
    expect(await redis().zscore(pendingIntakeKey(), idOf(1))).toBe(String(reply.now));
    // Urgent: it waits in the urgent backlog from its release; the one still scheduled is in neither set.
    expect(await redis().zscore(pendingUrgentKey(), idOf(1))).toBe(String(reply.now));
    expect(await redis().zscore(pendingUrgentKey(), idOf(2))).toBeNull();
    expect(await redis().zrange(dueIndexKey(), '0', '-1')).toEqual([idOf(2)]);
    expect(await redis().hget(notificationKey(idOf(2)), 'status')).toBe('scheduled');
    // Taken once: a second release (another worker's) finds nothing.
    expect((await release()).released).toEqual([]);
  });

  it('drops an entry whose record is gone or no longer scheduled, releasing nothing for it', async () => {
    // Far enough ahead that intake still finds it ahead of Redis's clock on a busy machine.
    await schedule(3, 300);
    await passed(await schedule(4, 300));
    await redis().hset(notificationKey(idOf(3)), 'status', 'canceled');
    await redis().del(notificationKey(idOf(4)));
    const reply = await release();
    expect(reply).toMatchObject({ handled: 2, released: [] });
    expect(await redis().zcard(dueIndexKey())).toBe(0);
    expect(await redis().hget(notificationKey(idOf(3)), 'status')).toBe('canceled');
    expect(await redis().exists(notificationKey(idOf(4)))).toBe(0);
  });

  it('takes at most a batch per call, earliest first', async () => {
    let last = 0;
    for (let n = 14; n >= 10; n -= 1) last = await schedule(n, 500 + (n - 10) * 1_000);
    // Due in id order (10 first): moved to the past in that order.
    for (let n = 10; n < 15; n += 1) await redis().zadd(dueIndexKey(), 'XX', String(n), idOf(n));
    await passed(last - 4_000);
    expect((await release(3)).released.map((r) => r.id)).toEqual([idOf(10), idOf(11), idOf(12)]);
    expect((await release(3)).released.map((r) => r.id)).toEqual([idOf(13), idOf(14)]);
  });
});
