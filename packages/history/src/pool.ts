import pg from 'pg';

/**
 * A pool whose clients never crash the process when PostgreSQL goes away (a restart, a failover,
 * a kill). pg-pool listens for 'error' on idle clients only: a client checked out (a COPY, a
 * transaction, Kysely's migration connection) that loses its server emits 'error' with no
 * listener, and node exits. Every client gets its own listener when the pool connects it, for its
 * whole life, checked out or not; the failure still reaches the caller through its query, which
 * rejects, and the caller releases the client with the error so the pool drops it.
 */
export function createPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('connect', (client) => {
    client.on('error', ignore);
  });
  // An idle client whose server went away: the next checkout connects anew.
  pool.on('error', ignore);
  return pool;
}

function ignore(): void {
  // The outage is reported by the query that meets it (and the archiver's back-off logs it).
}
