import pg from 'pg';
import { ensurePostgresBinaries, startPrivatePostgres, type PrivatePostgres } from '@notify/platform-kit';

/** The cluster's system identifier: initdb draws a new one; a copy of a cluster keeps it. */
async function systemIdentifier(server: PrivatePostgres): Promise<string> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    return String((await client.query<{ id: string }>('SELECT system_identifier::text AS id FROM pg_control_system()')).rows[0]?.id);
  } finally {
    await client.end();
  }
}

it("a test run's private PostgreSQLs are copies of one initdb, each its own server and data", async () => {
  await ensurePostgresBinaries({ env: process.env, log: (line) => process.stderr.write(`[harness test] ${line}\n`) });
  const [a, b] = [await startPrivatePostgres(), await startPrivatePostgres()];
  try {
    expect(a.dataDir).not.toBe(b.dataDir);
    expect(await systemIdentifier(a)).toBe(await systemIdentifier(b));
    const client = new pg.Client({ connectionString: a.url });
    await client.connect();
    await client.query('CREATE TABLE only_in_a (x int)');
    await client.end();
    const other = new pg.Client({ connectionString: b.url });
    await other.connect();
    const { rows } = await other.query("SELECT to_regclass('only_in_a') AS t");
    await other.end();
    expect(rows[0]?.t).toBeNull();
  } finally {
    await a.stop();
    await b.stop();
  }
}, 120_000);
