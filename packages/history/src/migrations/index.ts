import type { Migration } from 'kysely';
import { initial } from './0001-initial';
import { skippedIndex } from './0002-skipped-index';
import { parked } from './0003-parked';

/** Every migration, by name; names sort in the order they apply. Never edit one that shipped: add the next. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-skipped-index': skippedIndex,
  '0003-parked': parked,
};
