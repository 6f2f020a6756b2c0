import { openHistoryStore, type HistoryOptions, type HistoryRecord, type HistoryStore } from '@notify/history';

/** The history store as the archiver uses it: opened on first use, and opened again after a failed open. */
export interface LazyHistoryStore extends Pick<HistoryStore, 'insertBatch' | 'update'> {
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
  return {
    async insertBatch(records: readonly HistoryRecord[]) {
      if (closed) throw new Error('history store closed');
      await (await store()).insertBatch(records);
    },
    async update(id, change) {
      if (closed) throw new Error('history store closed');
      return (await store()).update(id, change);
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
