import { openHistoryStore, type HistoryOptions, type HistoryRecord, type HistoryStore, type ParkedStore } from '@notify/history';

/** The history store as the archiver uses it: opened on first use, and opened again after a failed open. */
export interface LazyHistoryStore extends Pick<HistoryStore, 'insertBatch' | 'update' | 'parked'> {
  close(): Promise<void>;
}

/**
 * Opening the store runs the migrations, which needs PostgreSQL: a worker that starts while it
 * is down must still deliver. So the archiver's store is opened when the first batch needs it;
 * a failed open is an archive failure like any other (the archiver backs off and tries again).
 */
export function lazyHistoryStore(options: HistoryOptions, open: (o: HistoryOptions) => Promise<HistoryStore> = openHistoryStore): LazyHistoryStore {
  let opening: Promise<HistoryStore> | undefined;
  let closed = false;
  const store = () => {
    opening ??= open(options).catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };
  const opened = async () => {
    if (closed) throw new Error('history store closed');
    return store();
  };
  const parked: ParkedStore = {
    put: async (records) => (await opened()).parked.put(records),
    due: async (partition, untilMs, limit) => (await opened()).parked.due(partition, untilMs, limit),
    get: async (id) => (await opened()).parked.get(id),
    ofEvent: async (tenant, eventId) => (await opened()).parked.ofEvent(tenant, eventId),
    list: async (tenant, filter) => (await opened()).parked.list(tenant, filter),
    remove: async (ids) => (await opened()).parked.remove(ids),
    count: async (partitions) => (await opened()).parked.count(partitions),
  };
  return {
    parked,
    async insertBatch(records: readonly HistoryRecord[]) {
      await (await opened()).insertBatch(records);
    },
    async update(id, change) {
      return (await opened()).update(id, change);
    },
    async close() {
      closed = true;
      const pending = opening;
      opening = undefined;
      if (pending)
        await pending.then(
          (s) => s.close(),
          () => undefined,
        );
    },
  };
}
