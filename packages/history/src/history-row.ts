/** The history table's row shape, and what is stored of an address hash. */

/** One history row as the store writes and reads it (column for column, see the 0001 migration). */
export interface HistoryRow {
  acceptedAt: number;
  tenantId: number;
  /** finishedAt - acceptedAt in ms, -1 when absent; a delivered notification's deliveredAt is its finishedAt. */
  finishedMs: number;
  status: number;
  priority: number;
  /** 0 when none. */
  deliveredChannel: number;
  plan: number;
  /** Bit per channel with at least one attempt (the `channel` filter); the high byte: a bit per skip reason (`skipReason`, codes.ts). */
  channels: number;
  reason: number;
  id: string;
  recipientId: string;
  eventId: string;
  detail: Buffer;
}

const HEX64 = /^[0-9a-f]{64}$/;
/** Address hashes keep 128 bits (32 hex characters): enough to match an address, as for ids. */
export const HASH_BYTES = 16;

/** What is stored of an address hash: a sha256 in hex keeps its first 128 bits; anything else as is. */
export function storedAddressHash(hash: string): string {
  return HEX64.test(hash) ? hash.slice(0, 2 * HASH_BYTES) : hash;
}
