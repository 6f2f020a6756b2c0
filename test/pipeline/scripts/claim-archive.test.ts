import { archiveQueueKey } from '@notify/core';
import { waitFor } from '@notify/platform-kit';
import { useScriptRedis } from './script-redis';

const { redis, scripts } = useScriptRedis();

describe('claim-archive-1.lua', () => {
  it('claimed: the due ids, oldest first, each leased so no other archiver takes it until the lease ends', async () => {
    const now = Date.now();
    await redis().zadd(archiveQueueKey(), now - 3_000, 'a', now - 2_000, 'b', now - 1_000, 'c', now + 600_000, 'later');
    await expect(scripts().claimArchive({ batchSize: 2, leaseMs: 60_000 })).resolves.toEqual({ code: 'claimed', ids: ['a', 'b'] });
    await expect(scripts().claimArchive({ batchSize: 10, leaseMs: 60_000 })).resolves.toEqual({ code: 'claimed', ids: ['c'] });
    await expect(scripts().claimArchive({ batchSize: 10, leaseMs: 60_000 })).resolves.toEqual({ code: 'claimed', ids: [] });
    const leased = Number(await redis().zscore(archiveQueueKey(), 'a'));
    expect(leased).toBeGreaterThan(now + 50_000);
    expect(await redis().zcard(archiveQueueKey())).toBe(4);
  });

  it('claimed: a batch whose lease ended (its archiver crashed) is due again', async () => {
    await redis().zadd(archiveQueueKey(), Date.now() - 1_000, 'a');
    await expect(scripts().claimArchive({ batchSize: 10, leaseMs: 1 })).resolves.toEqual({ code: 'claimed', ids: ['a'] });
    // Once Redis's clock passes the 1 ms lease, a claim takes it again.
    const again = await waitFor('the leased id to be due again', async () => {
      const { ids } = await scripts().claimArchive({ batchSize: 10, leaseMs: 60_000 });
      return ids.length > 0 && ids;
    });
    expect(again).toEqual(['a']);
  });
});
