export * from './types';
export * from './errors';
export { openHistoryStore } from './store';
export { runMigrations } from './migrate';
export { listQuery } from './list-query';
export { COPY_COLUMNS, encodeCopyBinary } from './copy-binary';
