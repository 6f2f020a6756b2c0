import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Scheduled notifications parked out of Redis until a lead time before their sendAt
 * (docs/scheduling.md, "Parking far-future schedules"): the record hash as Redis held it, and
 * what the worker needs without reading it (partition, due time, the record's expiry, the
 * tenant and event id for cancel by event). A row lives for the wait only: the promoter deletes
 * it once the record is back in Redis, so the table holds the far-future schedules and no more.
 * - (partition, send_at): the promoter's "due within the promote lead" of one partition;
 * - (tenant, send_at, id): `GET /v1/notifications?status=scheduled`, soonest first;
 * - (tenant, event_id): cancel by event.
 */
export const parked: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`CREATE TABLE parked_notifications (
      send_at bigint NOT NULL,
      expire_at bigint NOT NULL,
      partition integer NOT NULL,
      id uuid PRIMARY KEY,
      tenant text NOT NULL,
      event_id text NOT NULL,
      record jsonb NOT NULL
    )`.execute(db);
    await sql`CREATE INDEX parked_due ON parked_notifications (partition, send_at)`.execute(db);
    await sql`CREATE INDEX parked_tenant_time ON parked_notifications (tenant, send_at, id)`.execute(db);
    await sql`CREATE INDEX parked_event ON parked_notifications (tenant, event_id)`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP TABLE parked_notifications`.execute(db);
  },
};
