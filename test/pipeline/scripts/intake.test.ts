import { notificationKey, pendingIntakeKey, pendingUrgentKey } from '@notify/core';
import { useScriptRedis, intakeArgs, NOW } from './script-redis';

const { redis, scripts, archiving } = useScriptRedis();
const key = notificationKey(intakeArgs().id);

describe('intake-9.lua', () => {
  it('created: writes the record, its address hashes and the pending-intake entry', async () => {
    await expect(scripts().intake(intakeArgs())).resolves.toMatchObject({ code: 'created', status: 'accepted', skipped: [] });
    const record = await redis().hgetall(key);
    expect(record).toMatchObject({ status: 'accepted', step: '1', chan: 'push', calls: '0', acceptedAt: String(NOW) });
    expect(JSON.parse(record.ah as string)).toEqual({ push: 'h-push', sms: 'h-sms', email: 'h-email' });
    expect(await redis().zscore(pendingIntakeKey(), intakeArgs().id)).toBe(String(NOW));
    expect(await redis().zscore(pendingUrgentKey(), intakeArgs().id)).toBe(String(NOW));
  });

  it('created: a reminder joins the pending set, not the urgent backlog', async () => {
    await scripts().intake(intakeArgs({ priority: 'reminder' }));
    expect(await redis().zscore(pendingIntakeKey(), intakeArgs().id)).toBe(String(NOW));
    expect(await redis().zscore(pendingUrgentKey(), intakeArgs().id)).toBeNull();
  });

  it('duplicate: same fingerprint answers the status, and the first channel while still accepted', async () => {
    await scripts().intake(intakeArgs());
    await expect(scripts().intake(intakeArgs())).resolves.toEqual({ code: 'duplicate', status: 'accepted', firstChannel: 'push' });
    await redis().hset(key, 'status', 'delivered');
    await expect(scripts().intake(intakeArgs())).resolves.toEqual({ code: 'duplicate', status: 'delivered', firstChannel: undefined });
  });

  it('conflict: same key, another payload', async () => {
    await scripts().intake(intakeArgs());
    await expect(scripts().intake(intakeArgs({ fingerprint: 'fp-other' }))).resolves.toEqual({ code: 'conflict' });
  });
});

describe('intake-9.lua after archival (the full record replaced by its compact entry)', () => {
  const id = 'ab'.repeat(16);
  const fingerprint = 'cd'.repeat(32);
  const archivedArgs = (o: Partial<Parameters<ReturnType<typeof scripts>['intake']>[0]> = {}) => intakeArgs({ id, fingerprint, ...o });

  beforeEach(async () => {
    await scripts().intake(archivedArgs());
    await archiving().finishNotification({ id, fromStep: 1, status: 'unconfirmed', reason: 'unknown-outcome-budget-exhausted', now: Date.now() });
  });

  it('duplicate: the same event 1 s after it ended (before archival) answers from the full record', async () => {
    await expect(scripts().intake(archivedArgs())).resolves.toEqual({ code: 'duplicate', status: 'unconfirmed', firstChannel: undefined });
  });

  it('duplicate: the same event after archival answers the final status from the compact entry, and creates nothing', async () => {
    await scripts().compactArchived({ ids: [id], idempotencyWindowSeconds: 7 * 86_400 });
    expect(await redis().exists(notificationKey(id))).toBe(0);
    await expect(scripts().intake(archivedArgs())).resolves.toEqual({ code: 'duplicate', status: 'unconfirmed', firstChannel: undefined });
    expect(await redis().exists(notificationKey(id))).toBe(0);
  });

  it('conflict: a changed payload after archival (fingerprint differs within its first 64 bits)', async () => {
    await scripts().compactArchived({ ids: [id], idempotencyWindowSeconds: 7 * 86_400 });
    await expect(scripts().intake(archivedArgs({ fingerprint: `ce${'cd'.repeat(31)}` }))).resolves.toEqual({ code: 'conflict' });
    expect(await redis().exists(notificationKey(id))).toBe(0);
  });

  it('created: another id is not answered by an archived one sharing its bucket', async () => {
    await scripts().compactArchived({ ids: [id], idempotencyWindowSeconds: 7 * 86_400 });
    await expect(scripts().intake(archivedArgs({ id: `ab${'ab'.repeat(14)}ac` }))).resolves.toMatchObject({ code: 'created', status: 'accepted', skipped: [] });
  });
});
