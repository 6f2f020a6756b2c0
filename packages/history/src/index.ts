export * from './types';
export * from './errors';
export { openHistoryStore } from './store';
export { runMigrations } from './migrate';
export { listQuery } from './list-query';
export { COPY_COLUMNS, encodeCopyBinary } from './copy-binary';
export { emptyParkedStore, type ParkedRecord, type ParkedListFilter, type ParkedStore } from './parked-store';
