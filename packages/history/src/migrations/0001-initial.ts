import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The history table, sized for 30 M notifications a day (see docs/benchmarks-history.md):
 * - partitioned by day on accepted_at: retention drops whole partitions (no DELETE, no bloat);
 * - fixed-width columns first, 8-byte aligned, then the varlena ones (no alignment padding);
 *   NOT NULL everywhere (sentinels instead of NULL) so the row header has no null bitmap;
 * - codes as smallint, the tenant as an integer from history_tenants, the id as uuid (16 B);
 * - attempts, skips and address hashes in one compact bytea (see record-codec.ts);
 * - indexes, each measured against its alternative in `npm run bench:history`:
 *   - primary key (id, accepted_at): get by id and the idempotent insert (a record archived
 *     twice has the same id and acceptance time); (tenant, time, id) would serve the list too but
 *     measured 88 B/row (its pages split half-empty) against 55 + 34 for the two chosen here;
 *   - (tenant_id, accepted_at): the default list, newest first (ties on a millisecond sorted by
 *     id on the few rows that share it);
 *   - 8-byte hashes of (tenant, recipient) and of (tenant, event) instead of the texts (half the
 *     size), without the time: one recipient has a few rows per day, and a campaign's rows were
 *     inserted together, so sorting what the hash finds is cheap;
 *   - a partial (tenant_id, accepted_at) index over the notifications that were not delivered:
 *     failures are rare (well under 1 %), so the status filter reads only them, for almost no bytes.
 */
export const initial: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`CREATE TABLE history_tenants (
      id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      name text NOT NULL UNIQUE
    )`.execute(db);
    await sql`CREATE TABLE history_notifications (
      accepted_at timestamptz NOT NULL,
      tenant_id integer NOT NULL,
      finished_ms integer NOT NULL,
      status smallint NOT NULL,
      priority smallint NOT NULL,
      delivered_channel smallint NOT NULL,
      plan smallint NOT NULL,
      channels smallint NOT NULL,
      reason smallint NOT NULL,
      id uuid NOT NULL,
      recipient_id text NOT NULL,
      event_id text NOT NULL,
      detail bytea NOT NULL,
      PRIMARY KEY (id, accepted_at)
    ) PARTITION BY RANGE (accepted_at)`.execute(db);
    await sql`CREATE INDEX history_tenant_time ON history_notifications (tenant_id, accepted_at)`.execute(db);
    await sql`CREATE INDEX history_recipient ON history_notifications (hashtextextended(recipient_id, tenant_id))`.execute(db);
    await sql`CREATE INDEX history_event ON history_notifications (hashtextextended(event_id, tenant_id))`.execute(db);
    // 5 = the status code of 'delivered' (codes.ts): the index holds failed and unconfirmed ones.
    await sql`CREATE INDEX history_undelivered ON history_notifications (tenant_id, accepted_at) WHERE status <> 5`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP TABLE history_notifications`.execute(db);
    await sql`DROP TABLE history_tenants`.execute(db);
  },
};
