import { archiveQueueKey } from '@notify/core';
import { useScriptRedis } from './script-redis';

const { redis, scripts } = useScriptRedis();

describe('release-archive-1.lua', () => {
  it('released: claimed ids are due again at once; ids already off the queue stay off', async () => {
    await redis().zadd(archiveQueueKey(), Date.now() - 1_000, 'a', Date.now() - 1_000, 'b');
    await scripts().claimArchive({ batchSize: 10, leaseMs: 600_000 });
    await expect(scripts().claimArchive({ batchSize: 10, leaseMs: 600_000 })).resolves.toEqual({ code: 'claimed', ids: [] });
    await expect(scripts().releaseArchive({ ids: ['a', 'b', 'gone'] })).resolves.toEqual({ code: 'released', released: 2 });
    expect(await redis().zscore(archiveQueueKey(), 'gone')).toBeNull();
    const again = await scripts().claimArchive({ batchSize: 10, leaseMs: 600_000 });
    expect([...again.ids].sort()).toEqual(['a', 'b']);
  });
});
