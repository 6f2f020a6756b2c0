import type { Channel, NotificationView, Priority, SkipReason, TerminalStatus } from '@notify/core';
import type { ParkedStore } from './parked-store';

/** A terminal notification as archived: its status view plus what only the history keeps. */
export interface HistoryRecord extends NotificationView {
  tenant: string;
  /**
   * sha256 per channel of the address as sent (the record's `ah` field); never the address. The
   * history keeps the first 128 bits (32 hex characters), enough to match an address.
   */
  addressHashes?: Partial<Record<Channel, string>>;
}

export interface ListFilter {
  recipientId?: string;
  eventId?: string;
  /** `scheduled` is answered from Redis (the due indexes), never from the history. */
  status?: TerminalStatus | 'scheduled';
  priority?: Priority;
  /** A channel the notification made an external call on (any attempt), delivered or not. */
  channel?: Channel;
  /** A notification with at least one skip of this reason (`opted-out`: a channel the recipient opted out of). */
  skipReason?: SkipReason;
  /** ms since epoch, on acceptedAt: since inclusive, until exclusive. */
  since?: number;
  until?: number;
  /** 1..HISTORY_MAX_LIST_LIMIT (validated by the API). */
  limit: number;
  /** Opaque, from a previous page's nextCursor. */
  cursor?: string;
}

export interface ListPage {
  items: NotificationView[];
  nextCursor?: string;
}

export interface HistoryStore {
  /** Idempotent: a record already stored is left as it is (ON CONFLICT DO NOTHING); one transaction. */
  insertBatch(records: readonly HistoryRecord[]): Promise<void>;
  /** Another tenant's id reads as undefined. */
  get(tenant: string, id: string): Promise<NotificationView | undefined>;
  /** Keyset pagination, newest first, stable under inserts; a bad cursor throws InvalidCursorError (isInvalidCursorError). */
  list(tenant: string, filter: ListFilter): Promise<ListPage>;
  /**
   * The archived record `id` of any tenant, its row locked while `change` decides (a provider event
   * arriving after archival, docs/provider-events.md); the record `change` returns replaces it, in
   * one transaction. Undefined when the history does not hold `id`.
   */
  update<T>(id: string, change: (record: HistoryRecord) => Promise<RecordChange<T>>): Promise<T | undefined>;
  /** Scheduled notifications parked out of Redis until shortly before they are due (docs/scheduling.md). */
  readonly parked: ParkedStore;
  /** Creates the partitions ahead (today + N days) and drops those older than the retention. */
  maintainPartitions(nowMs: number): Promise<void>;
  ping(signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** What an update decided: the record to store instead (none: unchanged) and what to answer. */
export interface RecordChange<T> {
  record?: HistoryRecord;
  result: T;
}

export interface HistoryOptions {
  url: string;
  retentionDays: number;
  poolSize?: number;
  applicationName?: string;
  /** Daily partitions created ahead of today (default 3). */
  partitionsAhead?: number;
  /**
   * How insertBatch writes (measured in `npm run bench:history`, docs/benchmarks-history.md):
   * 'copy' (default) one binary COPY, and the idempotent INSERT for a batch holding a row stored
   * before; 'staging' binary COPY into a temporary table then INSERT ... SELECT ... ON CONFLICT DO
   * NOTHING; 'unnest' one INSERT of thirteen arrays ... ON CONFLICT DO NOTHING.
   */
  insertMethod?: HistoryInsertMethod;
}

export type HistoryInsertMethod = 'copy' | 'staging' | 'unnest';
