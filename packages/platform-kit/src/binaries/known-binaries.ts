/** A program the platform runs on this machine, and the Debian/Ubuntu package that provides it. */
export interface BinaryNeed {
  binary: string;
  aptPackage: string;
}

/**
 * Every machine binary the kit starts, in one table. The next services add theirs here:
 * the Redis Cluster needs `redis-cli` (package redis-tools, `--cluster create`); PostgreSQL's
 * `initdb` and `postgres` come from package postgresql, which Debian installs under
 * /usr/lib/postgresql/<major>/bin (off PATH), so that service will add the directory to its lookup.
 */
export const BINARIES = {
  redisServer: { binary: 'redis-server', aptPackage: 'redis-server' },
  redisCli: { binary: 'redis-cli', aptPackage: 'redis-tools' },
  /** Off PATH on Debian: found by ensurePostgresBinaries under /usr/lib/postgresql/<major>/bin. */
  postgres: { binary: 'initdb', aptPackage: 'postgresql' },
} as const satisfies Record<string, BinaryNeed>;
