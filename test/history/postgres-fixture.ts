import pg from 'pg';
import { ensurePostgresBinaries, startPrivatePostgres, type PrivatePostgres } from '@notify/platform-kit';

/** A private PostgreSQL for one test file (installed with apt first if missing, like redis-server). */
export async function startTestPostgres(): Promise<PrivatePostgres> {
  await ensurePostgresBinaries({ env: process.env, log: (line) => process.stderr.write(`[history test] ${line}\n`) });
  return startPrivatePostgres();
}

/** A new empty database on `server`, so each test opens the store on a clean slate; returns its url. */
export async function freshDatabase(server: PrivatePostgres, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return server.url.replace(/\/[^/]*$/, `/${name}`);
}

/** Runs one query on `url` with a short-lived client (assertions on the schema and row counts). */
export async function queryRows<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
