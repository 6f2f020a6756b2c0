import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The `skipReason` filter's index: the notifications with at least one skip (the `channels`
 * column's high byte, codes.ts SKIP_BITS_FROM), by (tenant, time). Skips are rare, so the
 * partial index holds few rows and a filtered list reads only them. Building it locks writes to
 * the table until it is done: the archiver's batches wait in Redis meanwhile.
 */
export const skippedIndex: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // 256 = 1 << SKIP_BITS_FROM: any skip bit set.
    await sql`CREATE INDEX history_skipped ON history_notifications (tenant_id, accepted_at) WHERE channels >= 256`.execute(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP INDEX history_skipped`.execute(db);
  },
};
