/**
 * The partitioned keyspace (docs/partitions.md): one Redis is single-threaded, so the keys are
 * split to spread over a cluster's masters. A notification belongs to one of
 * `PARTITIONS` partitions, chosen from its recipient: partition = the first 16 bits of the
 * recipient hash `rh` modulo the partition count. Everything one Lua script touches (record,
 * idempotency entries, pending-intake set, suppressions, stored profile, archive queue, step
 * jobs) carries the partition's hash tag, so each script stays in one Redis Cluster slot.
 *
 * The notification id carries the same 16 bits as its last 4 hex characters (see
 * `notificationId`), so an id alone names its partition: `GET /v1/notifications/:id`, the
 * archiver and the workers need nothing else.
 */

/** Redis Cluster's slot count. */
export const CLUSTER_SLOTS = 16_384;

/** Bits of the recipient hash (and of the id's tail) a partition is chosen from: at most 65,536 partitions. */
export const PARTITION_HASH_BITS = 16;
export const MAX_PARTITIONS = 2 ** PARTITION_HASH_BITS;

/** Partition of a recipient hash (32 hex characters): its first 16 bits modulo `partitions`. */
export function partitionOfRecipient(rh: string, partitions: number): number {
  if (partitions <= 1) return 0;
  const bits = parseInt(rh.slice(0, 4), 16);
  return Number.isNaN(bits) ? 0 : bits % partitions;
}

/**
 * Partition of a notification id: its last 4 hex characters are the first 4 of its recipient
 * hash. Anything that is not a 32-hex id (a malformed lookup) reads partition 0, where it is
 * not found either.
 */
export function partitionOfId(id: string, partitions: number): number {
  if (partitions <= 1 || !/^[0-9a-f]{32}$/.test(id)) return 0;
  return parseInt(id.slice(28, 32), 16) % partitions;
}

/** Every partition number, 0 .. partitions - 1. */
export function allPartitions(partitions: number): number[] {
  return Array.from({ length: partitions }, (_, p) => p);
}

/**
 * The slot Redis Cluster puts a key in: CRC16 (XMODEM) of the key, or of its hash tag (the text
 * between the first `{` and the next `}`, when not empty), modulo 16,384.
 */
export function keySlot(key: string): number {
  const open = key.indexOf('{');
  if (open >= 0) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) key = key.slice(open + 1, close);
  }
  return crc16(Buffer.from(key, 'utf8')) % CLUSTER_SLOTS;
}

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The hash tag of partition 0: the tag every key had before partitions, so single-Redis data keeps its keys. */
export const BASE_TAG_TEXT = 'notify';

/** Width of the slot window a partition's tag is searched in (windows of different partitions never overlap up to 2,048 partitions). */
const TAG_SLOT_WINDOW = 8;

const tagCache = new Map<number, string>();

/** The 14 bits of `p` in reverse order: 0, 8192, 4096, 12288, 2048, ... (any 2^k first values are evenly spaced). */
function reverse14(p: number): number {
  let r = 0;
  for (let bit = 0; bit < 14; bit += 1) r |= ((p >> bit) & 1) << (13 - bit);
  return r;
}

/**
 * The hash tag text (without braces) of partition `p`. Partition 0 keeps `notify`. Partition
 * p > 0 gets `notify:<p>:<n>`, with n the smallest number that puts the tag in the slot window
 * starting at `slot(notify) + reverse14(p)`: the partitions' slots are spread evenly over the
 * slot space whatever the partition count (exactly evenly for a power of two), so masters that
 * own equal slot ranges (what `redis-cli --cluster create` makes) own equal numbers of
 * partitions, ±1. Deterministic and independent of the partition count: NEVER change it
 * without a migration (every key of a partition carries its tag).
 */
export function partitionTagText(p: number): string {
  if (p === 0) return BASE_TAG_TEXT;
  if (!Number.isInteger(p) || p < 0 || p >= MAX_PARTITIONS) throw new RangeError(`partition ${p} is out of range`);
  let tag = tagCache.get(p);
  if (tag === undefined) {
    const target = (keySlot(BASE_TAG_TEXT) + reverse14(p % CLUSTER_SLOTS)) % CLUSTER_SLOTS;
    for (let n = 0; ; n += 1) {
      const candidate = `${BASE_TAG_TEXT}:${p}:${n}`;
      if ((keySlot(candidate) - target + CLUSTER_SLOTS) % CLUSTER_SLOTS < TAG_SLOT_WINDOW) {
        tag = candidate;
        break;
      }
    }
    tagCache.set(p, tag);
  }
  return tag;
}

/**
 * Parses a partition selection: `all`, or a comma list of numbers and inclusive ranges
 * (`0-7`, `0-3,8,10-11`). Throws on a number outside 0 .. partitions - 1 or on a repeat.
 */
export function parsePartitionList(spec: string, partitions: number): number[] {
  const text = spec.trim();
  if (text === '' || text === 'all') return allPartitions(partitions);
  const chosen = new Set<number>();
  for (const part of text.split(',')) {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!match) throw new Error(`'${part}' is not a partition number or range (e.g. 0-7)`);
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (to < from) throw new Error(`partition range '${part}' is reversed`);
    for (let p = from; p <= to; p += 1) {
      if (p >= partitions) throw new Error(`partition ${p} does not exist (PARTITIONS=${partitions})`);
      if (chosen.has(p)) throw new Error(`partition ${p} is listed twice`);
      chosen.add(p);
    }
  }
  return [...chosen].sort((a, b) => a - b);
}

/**
 * The partitions worker process `index` of `count` consumes, so that `count` processes cover
 * all `partitions` partitions: with count ≤ partitions, contiguous blocks whose sizes differ
 * by at most one, no gaps, no overlaps; with count > partitions, process i takes partition
 * i mod partitions (every partition served by ⌊count/partitions⌋ or ⌈count/partitions⌉
 * processes: BullMQ workers on one queue share it safely).
 */
export function assignedPartitions(index: number, count: number, partitions: number): number[] {
  if (!Number.isInteger(count) || count < 1) throw new Error(`worker partition count ${count} must be a positive integer`);
  if (!Number.isInteger(index) || index < 0 || index >= count) throw new Error(`worker partition index ${index} must be in 0 .. ${count - 1}`);
  if (count > partitions) return [index % partitions];
  const from = Math.floor((index * partitions) / count);
  const to = Math.floor(((index + 1) * partitions) / count);
  return allPartitions(partitions).slice(from, to);
}

/** The whole plan: for each of `count` worker processes, its partitions (what `assignedPartitions` gives each). */
export function partitionPlan(count: number, partitions: number): number[][] {
  return Array.from({ length: count }, (_, index) => assignedPartitions(index, count, partitions));
}

/** Compact text of a partition list: `0-3,8,10-11`. */
export function formatPartitionList(list: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < list.length;) {
    let j = i;
    while (j + 1 < list.length && list[j + 1] === (list[j] as number) + 1) j += 1;
    parts.push(i === j ? `${list[i]}` : `${list[i]}-${list[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}
