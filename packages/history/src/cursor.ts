import { InvalidCursorError } from './errors';

/** The last key of a page: acceptance time in microseconds (the column's precision) and the id. */
export interface ListKey {
  acceptedAtUs: number;
  id: string;
}

const VERSION = 1;
const BYTES = 1 + 8 + 16;
const SHAPE = /^[A-Za-z0-9_-]{34}$/;
/** 2^53 µs is year 2255: anything past it was not issued by us. */
const MAX_US = Number.MAX_SAFE_INTEGER;

/** base64url of (version, acceptedAt µs as int64, id): opaque to clients, 34 characters. */
export function encodeCursor(key: ListKey): string {
  const buf = Buffer.alloc(BYTES);
  buf[0] = VERSION;
  buf.writeBigInt64BE(BigInt(key.acceptedAtUs), 1);
  Buffer.from(key.id, 'hex').copy(buf, 9);
  return buf.toString('base64url');
}

/** Strict: the exact length and alphabet, our version, a canonical encoding and a sane time. */
export function decodeCursor(cursor: string): ListKey {
  if (!SHAPE.test(cursor)) throw new InvalidCursorError('must be a cursor returned as nextCursor');
  const buf = Buffer.from(cursor, 'base64url');
  if (buf.length !== BYTES || buf.toString('base64url') !== cursor) throw new InvalidCursorError('is not a valid cursor encoding');
  if (buf[0] !== VERSION) throw new InvalidCursorError('was issued by another version');
  const us = buf.readBigInt64BE(1);
  if (us < 0n || us > BigInt(MAX_US)) throw new InvalidCursorError('holds an impossible time');
  return { acceptedAtUs: Number(us), id: buf.subarray(9).toString('hex') };
}
