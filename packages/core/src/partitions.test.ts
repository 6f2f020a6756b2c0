import { notificationId, recipientHash } from './identity';
import { archiveQueueKey, notificationKey, partitionTag, pendingIntakeKey, pendingUrgentKey, queuePrefix, recipientKey, suppressionKey } from './names';
import {
  CLUSTER_SLOTS,
  assignedPartitions,
  formatPartitionList,
  keySlot,
  parsePartitionList,
  partitionOfId,
  partitionOfRecipient,
  partitionPlan,
  partitionTagText,
} from './partitions';

describe('partitions', () => {
  it('computes Redis Cluster slots as Redis does (CRC16 XMODEM of the hash tag, mod 16384)', () => {
    // Values Redis answers to CLUSTER KEYSLOT (and the CRC16 check value of '123456789', 0x31C3).
    expect(keySlot('123456789')).toBe(0x31c3);
    expect(keySlot('foo')).toBe(12182);
    expect(keySlot('somekey')).toBe(11058);
    expect(keySlot('{user1000}.following')).toBe(keySlot('user1000'));
    expect(keySlot('foo{}{bar}')).not.toBe(keySlot('bar'));
  });

  it('keeps {notify} for partition 0 and gives every other partition a tag of its own', () => {
    expect(partitionTag(0)).toBe('{notify}');
    expect(notificationKey('abc')).toBe('{notify}:n:abc');
    expect(queuePrefix(0)).toBe('{notify}:q');
    const tags = Array.from({ length: 256 }, (_, p) => partitionTag(p));
    expect(new Set(tags).size).toBe(256);
    expect(new Set(tags.map((t) => keySlot(t))).size).toBe(256);
    expect(partitionTagText(5)).toBe(partitionTagText(5)); // deterministic
    expect(partitionTagText(5)).toMatch(/^notify:5:\d+$/);
  });

  it.each([3, 6])('spreads 16 partitions over %i equal slot ranges within ±1 of an even share', (masters) => {
    const perMaster = new Array<number>(masters).fill(0);
    for (let p = 0; p < 16; p += 1) {
      const slot = keySlot(partitionTag(p));
      perMaster[Math.min(masters - 1, Math.floor(slot / Math.ceil(CLUSTER_SLOTS / masters)))]! += 1;
    }
    for (const n of perMaster) expect(Math.abs(n - 16 / masters)).toBeLessThanOrEqual(1);
  });

  it('puts every key of one notification, its recipient and its jobs in one slot', () => {
    const partitions = 16;
    for (let r = 0; r < 50; r += 1) {
      const rh = recipientHash('t', `user-${r}`);
      const id = notificationId('t', `event-${r}`, `user-${r}`);
      const p = partitionOfRecipient(rh, partitions);
      expect(partitionOfId(id, partitions)).toBe(p);
      const slots = new Set(
        [
          notificationKey(id, p),
          recipientKey(rh, p),
          suppressionKey(rh, 'sms', p),
          pendingIntakeKey(p),
          pendingUrgentKey(p),
          archiveQueueKey(p),
          `${queuePrefix(p)}:push-urgent:wait`,
        ].map(keySlot),
      );
      expect(slots.size).toBe(1);
    }
  });

  it('names the partition from the id alone, and reads partition 0 with one partition or a malformed id', () => {
    const id = notificationId('tenant', 'e1', 'r1');
    expect(id.slice(28)).toBe(recipientHash('tenant', 'r1').slice(0, 4));
    expect(partitionOfId(id, 1)).toBe(0);
    expect(partitionOfId('not-an-id', 16)).toBe(0);
    expect(partitionOfId(id, 65_536)).toBe(parseInt(id.slice(28), 16));
  });

  it('spreads recipients evenly over the partitions', () => {
    const partitions = 16;
    const counts = new Array<number>(partitions).fill(0);
    const n = 32_000;
    for (let r = 0; r < n; r += 1) counts[partitionOfRecipient(recipientHash('tenant', `recipient-${r}`), partitions)]! += 1;
    for (const c of counts) expect(Math.abs(c - n / partitions) / (n / partitions)).toBeLessThan(0.1);
  });

  it.each([
    [1, 1],
    [3, 16],
    [4, 16],
    [5, 16],
    [16, 16],
    [7, 100],
    [20, 16],
  ])('assigns %i worker processes over %i partitions with no gap, and no overlap while processes ≤ partitions', (count, partitions) => {
    const plan = partitionPlan(count, partitions);
    const covered = plan.flat();
    expect(new Set(covered)).toEqual(new Set(Array.from({ length: partitions }, (_, p) => p)));
    if (count <= partitions) {
      expect(covered).toHaveLength(partitions);
      const sizes = plan.map((l) => l.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    } else {
      for (const list of plan) expect(list).toHaveLength(1);
    }
  });

  it('refuses an impossible worker index or count', () => {
    expect(() => assignedPartitions(4, 4, 16)).toThrow();
    expect(() => assignedPartitions(0, 0, 16)).toThrow();
  });

  it('parses and formats partition lists', () => {
    expect(parsePartitionList('all', 4)).toEqual([0, 1, 2, 3]);
    expect(parsePartitionList('0-2, 5,7-8', 16)).toEqual([0, 1, 2, 5, 7, 8]);
    expect(() => parsePartitionList('0-16', 16)).toThrow(/does not exist/);
    expect(() => parsePartitionList('1,1', 16)).toThrow(/twice/);
    expect(() => parsePartitionList('3-1', 16)).toThrow(/reversed/);
    expect(() => parsePartitionList('x', 16)).toThrow();
    expect(formatPartitionList([0, 1, 2, 5, 7, 8])).toBe('0-2,5,7-8');
    expect(formatPartitionList([])).toBe('');
  });
});
