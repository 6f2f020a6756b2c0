import pg from 'pg';
import type { PrivatePostgres } from '@notify/platform-kit';
import { startTestPostgres } from './postgres-fixture';

let server: PrivatePostgres | undefined;
afterAll(async () => {
  await server?.stop();
});

async function withClient<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

test('the private PostgreSQL: kill() is a crash, restart() comes back on the same port with every committed row', async () => {
  server = await startTestPostgres();
  const { url, port } = server;
  expect(url).toBe(`postgres://postgres@127.0.0.1:${port}/postgres`);
  expect(port).not.toBe(5432);
  await withClient(url, async (c) => {
    await c.query('CREATE TABLE t (n int)');
    // Committed immediately before the kill: must survive it (commits reach the OS before the ack).
    for (let i = 0; i < 50; i++) await c.query('INSERT INTO t VALUES ($1)', [i]);
  });
  await server.kill();
  await expect(withClient(url, (c) => c.query('SELECT 1'))).rejects.toThrow();
  await server.restart();
  const rows = await withClient(url, async (c) => (await c.query<{ n: string }>('SELECT count(*)::text AS n FROM t')).rows);
  expect(rows[0]?.n).toBe('50');
  // A second crash and restart in a row works too (the old postmaster is waited for).
  await server.kill();
  await server.restart();
  expect(await withClient(url, async (c) => (await c.query<{ x: number }>('SELECT 1 AS x')).rows[0]?.x)).toBe(1);
});
