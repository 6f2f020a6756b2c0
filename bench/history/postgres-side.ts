/**
 * The PostgreSQL half of `npm run bench:history`: synthetic terminal records from the brief's
 * traffic model inserted through the store's insertBatch (the archiver's path), then bytes per
 * notification (table + indexes, every partition), the alternatives the schema rejected measured
 * on the same rows, and list-query latency with the plans PostgreSQL chose.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { CHANNELS, notificationId, seededRandom, type AttemptRecord, type Channel, type SkipRecord } from '@notify/core';
import { listQuery, type HistoryRecord, type HistoryStore, type ListFilter } from '@notify/history';
import { BI_ASSUMPTIONS } from '@notify/models';
import { percentile, pickPreferred } from '@notify/platform-kit';

export interface PostgresSideOptions {
  url: string;
  store: HistoryStore;
  rows: number;
  days: number;
  tenants: number;
  batch: number;
  queries: number;
  /** Insertion stops when this is spent (rows inserted so far are measured). */
  maxInsertSeconds: number;
  nowMs: number;
  seed: number;
  log: (line: string) => void;
}

export interface QueryFigures {
  name: string;
  filter: string;
  p50Ms: number;
  p99Ms: number;
  count: number;
  meanRows: number;
  plan: string;
}
export interface PostgresFigures {
  rows: number;
  insertSeconds: number;
  insertPerSecond: number;
  bytes: { heap: number; toast: number; indexes: Record<string, number>; total: number; perNotification: number };
  alternatives: { name: string; bytesPerRow: number; versus: string; versusBytesPerRow: number }[];
  statusMix: Record<string, number>;
  queries: QueryFigures[];
}

const DAY = 86_400_000;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** Zipf-like tenant weights: a few large tenants, a long tail (rank r weighs 1/r). */
function tenantPicker(count: number): (u: number) => number {
  const weights = Array.from({ length: count }, (_, r) => 1 / (r + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative: number[] = [];
  weights.reduce((acc, w) => {
    cumulative.push((acc + w) / total);
    return acc + w;
  }, 0);
  return (u) => {
    const i = cumulative.findIndex((c) => u < c);
    return i < 0 ? count - 1 : i;
  };
}

/**
 * One notification's cascade under the brief's rates (BI4 shares, BI5/BI6 error rates, a
 * budget of 3 calls, 30 s between attempts): a call on a channel is permanent (address
 * refused: the cascade moves on and the channel is suppressed), transient (retried on the next
 * channel of the plan after the wait), a rare timeout (unknown, reconciled on the same
 * channel), or delivered.
 */
function cascade(random: () => number, acceptedAt: number, preferred: Channel) {
  const plan: Channel[] = [preferred, ...CHANNELS.filter((c) => c !== preferred)];
  const { transientError, permanentError, attemptBudget, waitSeconds } = BI_ASSUMPTIONS;
  const attempts: AttemptRecord[] = [];
  const skips: SkipRecord[] = [];
  let at = acceptedAt + 2 + Math.floor(random() * 40);
  let i = 0;
  let unknownOn: Channel | undefined;
  const refused = new Set<Channel>();
  while (attempts.length < attemptBudget && refused.size < plan.length) {
    const channel = unknownOn ?? plan[i % plan.length] ?? preferred;
    i += unknownOn ? 0 : 1;
    if (refused.has(channel)) continue;
    const kind = unknownOn ? ('reconcile' as const) : ('send' as const);
    const durationMs = 20 + Math.floor(random() * 180);
    const u = random();
    const base = { step: attempts.length + 1, channel, kind, startedAt: at, finishedAt: at + durationMs, durationMs, spent: true };
    unknownOn = undefined;
    if (u < permanentError[channel]) {
      attempts.push({ ...base, outcome: 'permanent', errorClass: 'http-422', message: 'the provider refused the address' });
      refused.add(channel);
    } else if (u < permanentError[channel] + transientError[channel]) {
      attempts.push({ ...base, outcome: 'transient', errorClass: 'http-503', message: 'provider answered 503' });
    } else if (u < permanentError[channel] + transientError[channel] + 0.003) {
      attempts.push({
        ...base,
        durationMs: 5_000,
        finishedAt: at + 5_000,
        outcome: 'unknown',
        errorClass: 'timeout',
        message: 'no answer within the call timeout',
      });
      unknownOn = channel;
    } else {
      attempts.push({ ...base, outcome: 'delivered' });
      return { plan, attempts, skips, status: 'delivered' as const, deliveredChannel: channel, deliveredAt: base.finishedAt, finishedAt: base.finishedAt };
    }
    at = base.finishedAt + waitSeconds * 1000;
  }
  for (const c of refused) if (!attempts.some((a) => a.channel === c && a.outcome === 'permanent')) skips.push({ channel: c, reason: 'suppressed', at });
  const uncertain = attempts[attempts.length - 1]?.outcome === 'unknown';
  const reason = uncertain ? 'unknown-outcome-budget-exhausted' : refused.size === plan.length ? 'all-channels-permanent' : 'budget-exhausted';
  return { plan, attempts, skips, status: uncertain ? ('unconfirmed' as const) : ('failed' as const), failureReason: reason, finishedAt: at };
}

/** A stream of terminal records in acceptance order over `days` days ending at nowMs. */
export function syntheticRecords(options: { rows: number; days: number; tenants: number; nowMs: number; seed: number }) {
  const random = seededRandom(options.seed);
  const pickTenant = tenantPicker(options.tenants);
  // The brief: each recipient gets 6 a day; campaign events reach many recipients at once.
  const recipients = Math.max(1, Math.round(options.rows / (BI_ASSUMPTIONS.notificationsPerRecipient * options.days)));
  const start = options.nowMs - options.days * DAY;
  const step = (options.days * DAY) / options.rows;
  const recipientTenant = (k: number) => pickTenant(((k * 2_654_435_761) % 4_294_967_296) / 4_294_967_296);
  let index = 0;
  return {
    recipients,
    next(): HistoryRecord {
      const n = index++;
      const k = Math.floor(random() * recipients);
      const tenant = `tenant-${String(recipientTenant(k)).padStart(3, '0')}`;
      const recipientId = `usr_${k.toString(36).padStart(16, '0')}`;
      const campaign = random() < 0.1;
      const eventId = campaign ? `cmp_${tenant}_${Math.floor(n / 20_000)}` : `evt_${n.toString(36).padStart(20, '0')}`;
      const acceptedAt = Math.floor(start + n * step);
      const preferred = pickPreferred(random(), BI_ASSUMPTIONS.channelShare);
      const c = cascade(random, acceptedAt, preferred);
      const addressHashes: Partial<Record<Channel, string>> = {};
      for (const a of c.attempts) addressHashes[a.channel] ??= sha(`${a.channel}:${recipientId}`);
      return {
        tenant,
        id: notificationId(tenant, eventId, recipientId),
        eventId,
        recipientId,
        priority: random() < 0.3 ? 'urgent' : 'reminder',
        status: c.status,
        plan: c.plan,
        ...(c.status === 'delivered' ? { deliveredChannel: c.deliveredChannel, deliveredAt: c.deliveredAt, latencyMs: c.deliveredAt - acceptedAt } : {}),
        acceptedAt,
        finishedAt: c.finishedAt,
        ...(c.failureReason ? { failureReason: c.failureReason } : {}),
        attempts: c.attempts,
        skips: c.skips,
        addressHashes,
      };
    },
  };
}

async function sizes(client: pg.Client) {
  const one = async (sql: string) => Number((await client.query<{ n: string | null }>(sql)).rows[0]?.n ?? 0);
  const leaves = `SELECT relid FROM pg_partition_tree('history_notifications') WHERE isleaf`;
  const heap = await one(`SELECT sum(pg_relation_size(relid))::text AS n FROM (${leaves}) l`);
  const total = await one(`SELECT sum(pg_total_relation_size(relid))::text AS n FROM (${leaves}) l`);
  const indexNames = (
    await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'history_notifications'::regclass ORDER BY 1`,
    )
  ).rows.map((r) => r.name);
  const indexes: Record<string, number> = {};
  for (const name of indexNames) indexes[name] = await one(`SELECT sum(pg_relation_size(relid))::text AS n FROM pg_partition_tree('${name}') WHERE isleaf`);
  const indexTotal = Object.values(indexes).reduce((a, b) => a + b, 0);
  return { heap, toast: total - heap - indexTotal, indexes, total };
}

/** Index sizes built fresh on one partition: the chosen form against the rejected one. */
async function alternatives(client: pg.Client, partition: string, rows: number) {
  const size = async (name: string, definition: string) => {
    await client.query(`CREATE INDEX ${name} ON ${partition} ${definition}`);
    const n = Number((await client.query<{ n: string }>(`SELECT pg_relation_size('${name}')::text AS n`)).rows[0]?.n);
    await client.query(`DROP INDEX ${name}`);
    return n / rows;
  };
  const out: PostgresFigures['alternatives'] = [];
  const pair = async (name: string, chosen: string, versus: string, versusDef: string) => {
    out.push({ name, bytesPerRow: await size('bench_alt_a', chosen), versus, versusBytesPerRow: await size('bench_alt_b', versusDef) });
  };
  await pair('recipient: (hash8(tenant, recipient))', '(hashtextextended(recipient_id, tenant_id))', '(tenant, recipient text)', '(tenant_id, recipient_id)');
  await pair(
    'event: (hash8(tenant, event))',
    '(hashtextextended(event_id, tenant_id))',
    '(hash8(tenant, event), time)',
    '(hashtextextended(event_id, tenant_id), accepted_at)',
  );
  await pair('tenant + time: (tenant, time)', '(tenant_id, accepted_at)', '(tenant, time, id)', '(tenant_id, accepted_at, id)');
  await pair(
    'undelivered: partial (tenant, time) WHERE status <> delivered',
    '(tenant_id, accepted_at) WHERE status <> 5',
    'full (tenant, status, time)',
    '(tenant_id, status, accepted_at)',
  );
  return out;
}

/** The detail blob against jsonb of the same attempts, skips, hashes and reason, on a sample. */
async function detailVersusJsonb(client: pg.Client, sample: HistoryRecord[]): Promise<PostgresFigures['alternatives'][number]> {
  await client.query('CREATE TEMP TABLE bench_jsonb (j jsonb NOT NULL)');
  const json = sample.map((r) =>
    JSON.stringify({ attempts: r.attempts, skips: r.skips, addressHashes: r.addressHashes, ...(r.failureReason ? { failureReason: r.failureReason } : {}) }),
  );
  await client.query('INSERT INTO bench_jsonb SELECT unnest($1::jsonb[])', [json]);
  const jsonb = Number((await client.query<{ n: string }>('SELECT avg(pg_column_size(j))::text AS n FROM bench_jsonb')).rows[0]?.n);
  const ids = sample.map((r) => r.id);
  const bytea = Number(
    (await client.query<{ n: string }>(`SELECT avg(pg_column_size(detail))::text AS n FROM history_notifications WHERE id = ANY($1::uuid[])`, [ids])).rows[0]
      ?.n,
  );
  await client.query('DROP TABLE bench_jsonb');
  return {
    name: 'detail: compact bytea (attempts, skips, hashes)',
    bytesPerRow: bytea,
    versus: 'jsonb of the same fields as archived (64-hex hashes)',
    versusBytesPerRow: jsonb,
  };
}

function describeFilter(f: Omit<ListFilter, 'limit'>): string {
  return (
    Object.entries(f)
      .map(([k, v]) => `${k}=${k === 'since' || k === 'until' ? new Date(v as number).toISOString() : String(v)}`)
      .join(' ') || '(none)'
  );
}

export async function runPostgresSide(o: PostgresSideOptions): Promise<PostgresFigures> {
  const source = syntheticRecords(o);
  const statusMix: Record<string, number> = {};
  const sample: HistoryRecord[] = [];
  const probes: HistoryRecord[] = [];
  let inserted = 0;
  let insertMs = 0;
  const deadline = performance.now() + o.maxInsertSeconds * 1000;
  o.log(
    `inserting ${o.rows.toLocaleString('en')} records over ${o.days} days, ${o.tenants} tenants, ~${source.recipients.toLocaleString('en')} recipients, batches of ${o.batch}`,
  );
  let lastLog = performance.now();
  while (inserted < o.rows && performance.now() < deadline) {
    const batch = Array.from({ length: Math.min(o.batch, o.rows - inserted) }, () => source.next());
    for (const r of batch) {
      statusMix[r.status] = (statusMix[r.status] ?? 0) + 1;
      if (sample.length < 20_000) sample.push(r);
      if ((inserted + probes.length) % 997 === 0 && probes.length < 5_000) probes.push(r);
    }
    const t0 = performance.now();
    await o.store.insertBatch(batch);
    insertMs += performance.now() - t0;
    inserted += batch.length;
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      o.log(`  ${inserted.toLocaleString('en')} inserted, ${Math.round(inserted / (insertMs / 1000)).toLocaleString('en')} records/s`);
    }
  }

  const client = new pg.Client({ connectionString: o.url });
  await client.connect();
  try {
    o.log('ANALYZE');
    await client.query('ANALYZE history_notifications');
    const s = await sizes(client);
    const count = Number((await client.query<{ n: string }>('SELECT count(*)::text AS n FROM history_notifications')).rows[0]?.n);
    const largest = (
      await client.query<{ name: string; n: string }>(
        `SELECT c.relname AS name, c.reltuples::int8::text AS n FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'history_notifications'::regclass ORDER BY c.reltuples DESC LIMIT 1`,
      )
    ).rows[0];
    o.log(`measuring rejected alternatives on ${largest?.name}`);
    const alts = largest ? await alternatives(client, largest.name, Number(largest.n)) : [];
    alts.push(await detailVersusJsonb(client, sample));

    const tenantIds = new Map((await client.query<{ id: number; name: string }>('SELECT id, name FROM history_tenants')).rows.map((r) => [r.name, r.id]));
    const random = seededRandom(o.seed + 1);
    const pick = () => probes[Math.floor(random() * probes.length)] as HistoryRecord;
    const bigTenant = 'tenant-000';
    const kinds: { name: string; make: () => { tenant: string; filter: Omit<ListFilter, 'limit'> } }[] = [
      {
        name: 'recipient',
        make: () => {
          const r = pick();
          return { tenant: r.tenant, filter: { recipientId: r.recipientId } };
        },
      },
      {
        name: 'status + time (failed, last 24 h)',
        make: () => {
          const r = pick();
          return { tenant: r.tenant, filter: { status: 'failed', since: o.nowMs - DAY } };
        },
      },
      {
        name: 'event',
        make: () => {
          const r = pick();
          return { tenant: r.tenant, filter: { eventId: r.eventId } };
        },
      },
      {
        name: 'tenant, newest first',
        make: () => {
          const r = pick();
          return { tenant: r.tenant, filter: {} };
        },
      },
      {
        name: 'priority + channel',
        make: () => {
          const r = pick();
          return { tenant: r.tenant, filter: { priority: 'urgent', channel: 'sms' } };
        },
      },
      { name: 'largest tenant, unconfirmed', make: () => ({ tenant: bigTenant, filter: { status: 'unconfirmed' } }) },
    ];
    const queries: QueryFigures[] = [];
    for (const kind of kinds) {
      const times: number[] = [];
      let rowsSeen = 0;
      const until = performance.now() + 30_000;
      for (let q = 0; q < o.queries && performance.now() < until; q++) {
        const { tenant, filter } = kind.make();
        const t0 = performance.now();
        const page = await o.store.list(tenant, { ...filter, limit: 50 });
        times.push(performance.now() - t0);
        rowsSeen += page.items.length;
      }
      const example = kind.make();
      const { text, values } = listQuery(tenantIds.get(example.tenant) as number, example.filter, undefined, 51);
      const plan = (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, SUMMARY ON) ${text}`, values)).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      queries.push({
        name: kind.name,
        filter: describeFilter(example.filter),
        p50Ms: percentile(times, 50) ?? NaN,
        p99Ms: percentile(times, 99) ?? NaN,
        count: times.length,
        meanRows: rowsSeen / Math.max(1, times.length),
        plan,
      });
    }
    return {
      rows: count,
      insertSeconds: insertMs / 1000,
      insertPerSecond: inserted / (insertMs / 1000),
      bytes: { ...s, perNotification: s.total / count },
      alternatives: alts,
      statusMix,
      queries,
    };
  } finally {
    await client.end();
  }
}
