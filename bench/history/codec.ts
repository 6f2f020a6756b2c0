/**
 * The archiver's JavaScript per record, alone (no Redis, no PostgreSQL): toRow (compact detail,
 * its read-back check) and the binary COPY encoding, over records shaped like the redis-side
 * bench's (one push attempt, three address hashes; one in ten failed after a 503).
 *   npx tsx bench/history/codec.ts [--count 200000]
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { encodeCopyBinary, type HistoryRecord } from '@notify/history';
import { toRow } from '../../packages/history/src/record-codec';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

export function sampleRecord(i: number): HistoryRecord {
  const acceptedAt = 1_780_000_000_000 + i;
  const failed = i % 10 === 9;
  return {
    tenant: 'bench',
    id: sha(`codec/${i}`).slice(0, 32),
    eventId: `event-${i}`,
    recipientId: `recipient-${i}`,
    priority: i % 3 === 0 ? 'urgent' : 'reminder',
    status: failed ? 'failed' : 'delivered',
    plan: ['push', 'sms', 'email'],
    ...(failed ? {} : { deliveredChannel: 'push' as const, deliveredAt: acceptedAt + 40, latencyMs: 40 }),
    acceptedAt,
    finishedAt: acceptedAt + (failed ? 61 : 40),
    ...(failed ? { failureReason: 'budget-exhausted' } : {}),
    attempts: [
      failed
        ? {
            step: 1,
            channel: 'push',
            kind: 'send',
            startedAt: acceptedAt + 5,
            finishedAt: acceptedAt + 60,
            durationMs: 55,
            outcome: 'transient',
            spent: true,
            errorClass: 'http-503',
            message: 'provider answered 503',
          }
        : { step: 1, channel: 'push', kind: 'send', startedAt: acceptedAt + 5, finishedAt: acceptedAt + 40, durationMs: 35, outcome: 'delivered', spent: true },
    ],
    skips: [],
    addressHashes: { push: sha(`p${i}`), sms: sha(`s${i}`), email: sha(`e${i}`) },
  };
}

function main(): void {
  const { values } = parseArgs({ options: { count: { type: 'string', default: '200000' } }, strict: true });
  const count = Number(values.count);
  const records = Array.from({ length: count }, (_, i) => sampleRecord(i));
  for (let round = 0; round < 3; round += 1) {
    // CPU time, not wall time: the machine is shared.
    const cpu = () => {
      const u = process.cpuUsage();
      return u.user + u.system;
    };
    const t0 = cpu();
    const rows = records.map((r) => toRow(r, 1));
    const t1 = cpu();
    for (let i = 0; i < rows.length; i += 1000) encodeCopyBinary(rows.slice(i, i + 1000));
    const t2 = cpu();
    const us = (a: number, b: number) => ((b - a) / count).toFixed(2);
    process.stdout.write(`round ${round + 1}: toRow ${us(t0, t1)} µs CPU/record, encodeCopyBinary ${us(t1, t2)} µs CPU/record\n`);
  }
}

if (require.main === module) main();
