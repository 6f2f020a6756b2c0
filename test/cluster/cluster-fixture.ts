import { BINARIES, ensureBinaries, startPrivateRedisCluster, type PrivateRedisCluster, type PrivateRedisClusterOptions } from '@notify/platform-kit';

/**
 * One private Redis Cluster per test file (3 masters + 3 replicas): redis-cli (Debian's
 * redis-tools; the harness's globalSetup ensures redis-server) is ensured here, installed with
 * apt where the user may, as .ci/run does.
 */
export async function startTestCluster(options: PrivateRedisClusterOptions = {}): Promise<PrivateRedisCluster> {
  await ensureBinaries([BINARIES.redisServer, BINARIES.redisCli], {
    env: process.env,
    log: (line) => process.stderr.write(`[cluster setup] ${line}\n`),
  });
  return startPrivateRedisCluster(options);
}
