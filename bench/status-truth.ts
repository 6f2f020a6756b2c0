/**
 * `npx tsx bench/status-truth.ts [count=10000] [rate=125]`: does the status API tell the truth
 * when provider calls time out after delivering and then connections are refused? The platform runs as real processes on 127.0.0.1 (private
 * Redis, simulators, api, two workers; breakers on, time at 0.01 x production). While `count`
 * notifications arrive open-loop at `rate`/s, push cycles through: slow (each call times out at
 * 300 ms while the provider delivers) -> down (connections refused: the reconciliations never
 * leave) -> up; SMS goes down for a moment each cycle too. Then every notification is read
 * through `GET /v1/notifications/:id` and compared with the provider ledger for its key.
 * A contradiction: `delivered` that no provider delivered, or `failed` that one did.
 * `unconfirmed` says "may have been delivered" and is counted apart. Bounded: count <= 50,000,
 * the whole run <= 20 minutes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { providerIdempotencyKey, type Channel, type NotificationView } from '@notify/core';
import { ProcessGroup, breakerTimeEnv, cascadeTimeEnv, startProcessPlatform, waitFor } from '@notify/platform-kit';

const COUNT = Math.min(50_000, Number(process.argv[2] ?? 10_000));
const RATE = Math.min(1_000, Number(process.argv[3] ?? 125));
const RUN_LIMIT_MS = 20 * 60_000;
const KEY = 'bench-status-truth-key-00000000000000';
const BATCH = 25;
const CYCLE_MS = 8_000;

const started = Date.now();
const group = new ProcessGroup();
const dataDir = mkdtempSync(join(tmpdir(), 'status-truth-'));
const inherited = Object.fromEntries(['PATH', 'HOME', 'TMPDIR'].flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : [])));

async function post(url: string, body?: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
}

async function main(): Promise<void> {
  const platform = await startProcessPlatform({
    group,
    inherited,
    workers: 2,
    apiKeys: `${KEY}:tenant-a`,
    dataDir,
    appEnv: {
      ...cascadeTimeEnv(0.01),
      ...breakerTimeEnv(0.01, true),
      PROVIDER_TIMEOUT_MS: '300',
      CASCADE_MAX_AGE_MS: '20000',
      CASCADE_RECONCILE_DELAY_MS: '500',
    },
  });
  try {
    const channel = (c: Channel, patch: unknown) => post(`${platform.controlUrl}/control/channels/${c}`, patch);
    const restore = (c: Channel) => post(`${platform.controlUrl}/control/channels/${c}/restore`);
    let faultsOn = true;
    // The fault cycle: push slow 1.2 s, down 2.5 s, up; SMS down 1 s mid-cycle.
    const faults = (async () => {
      while (faultsOn && Date.now() - started < RUN_LIMIT_MS) {
        await channel('push', { mode: 'slow', slowMs: 700 });
        await sleep(1_200);
        await channel('push', { mode: 'down' });
        await sleep(2_500);
        await restore('push');
        await sleep(800);
        await channel('sms', { mode: 'down' });
        await sleep(1_000);
        await restore('sms');
        await sleep(CYCLE_MS - 5_500);
      }
    })();

    const ids: string[] = [];
    let refused = 0;
    const interval = (BATCH / RATE) * 1_000;
    const sendStart = Date.now();
    for (let sent = 0; sent < COUNT && Date.now() - started < RUN_LIMIT_MS; sent += BATCH) {
      const due = sendStart + (sent / BATCH) * interval;
      if (due > Date.now()) await sleep(due - Date.now());
      const notifications = Array.from({ length: Math.min(BATCH, COUNT - sent) }, (_, j) => {
        const i = sent + j;
        return {
          eventId: `truth-${i}`,
          priority: i % 3 === 0 ? 'reminder' : 'urgent',
          content: { title: 'Parcel', body: `Update ${i}` },
          recipient: {
            id: `u-${i}`,
            preferences: ['push', 'sms', 'email'],
            addresses: { push: `tok-${i}`, sms: `+90555${String(1_000_000 + i).slice(-7)}`, email: `u${i}@example.com` },
          },
        };
      });
      const res = await fetch(`${platform.apiUrl}/v1/notifications/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: JSON.stringify({ notifications }),
      });
      const body = (await res.json()) as { results?: { httpStatus: number; id?: string }[] };
      for (const r of body.results ?? []) {
        if (r.id && r.httpStatus < 300) ids.push(r.id);
        else refused += 1;
      }
    }
    const sendSeconds = (Date.now() - sendStart) / 1_000;
    faultsOn = false;
    await faults;
    await Promise.all((['push', 'sms', 'email'] as const).map(restore));

    const views = new Map<string, NotificationView>();
    const readAll = async (list: string[]) => {
      for (let i = 0; i < list.length; i += 32) {
        await Promise.all(
          list.slice(i, i + 32).map(async (id) => {
            const res = await fetch(`${platform.apiUrl}/v1/notifications/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
            if (res.ok) views.set(id, (await res.json()) as NotificationView);
          }),
        );
      }
    };
    const terminal = new Set(['delivered', 'failed', 'unconfirmed']);
    await waitFor(
      'every notification terminal',
      async () => {
        await readAll(ids.filter((id) => !terminal.has(views.get(id)?.status ?? '')));
        return ids.every((id) => terminal.has(views.get(id)?.status ?? ''));
      },
      Math.max(10_000, RUN_LIMIT_MS - (Date.now() - started)),
      2_000,
    ).catch(() => undefined);

    const counts = { delivered: 0, failed: 0, unconfirmed: 0, unconfirmedDelivered: 0, stuck: 0, contradictions: 0, duplicates: 0 };
    const examples: string[] = [];
    for (let i = 0; i < ids.length; i += 32) {
      await Promise.all(
        ids.slice(i, i + 32).map(async (id) => {
          const view = views.get(id);
          const ledger = (await (await fetch(`${platform.controlUrl}/ledger/keys/${providerIdempotencyKey(id)}`)).json()) as { deliveries: unknown[] };
          const seen = ledger.deliveries.length;
          if (seen > 1) counts.duplicates += 1;
          const status = view?.status ?? 'missing';
          if (status === 'delivered') counts.delivered += 1;
          else if (status === 'failed') counts.failed += 1;
          else if (status === 'unconfirmed') {
            counts.unconfirmed += 1;
            if (seen > 0) counts.unconfirmedDelivered += 1;
          } else counts.stuck += 1;
          if ((status === 'delivered' && seen === 0) || (status === 'failed' && seen > 0)) {
            counts.contradictions += 1;
            if (examples.length < 5) examples.push(`${id}: ${status}${view?.failureReason ? ` (${view.failureReason})` : ''}, provider deliveries ${seen}`);
          }
        }),
      );
    }
    const ledger = (await (await fetch(`${platform.controlUrl}/ledger`)).json()) as { calls: Record<string, number> };
    const calls = Object.values(ledger.calls).reduce((a, b) => a + b, 0);
    const lines = [
      `status-truth: ${ids.length} accepted of ${COUNT} offered at ${RATE}/s (${sendSeconds.toFixed(0)} s), ${refused} refused at intake`,
      `  delivered ${counts.delivered}, failed ${counts.failed}, unconfirmed ${counts.unconfirmed} (provider delivered ${counts.unconfirmedDelivered}), not terminal ${counts.stuck}`,
      `  contradictions (API status vs provider ledger): ${counts.contradictions} = ${(counts.contradictions / Math.max(1, ids.length)).toFixed(5)}`,
      `  keys delivered twice: ${counts.duplicates}; provider calls ${calls} (${(calls / Math.max(1, ids.length)).toFixed(3)}/notification); run ${((Date.now() - started) / 1_000).toFixed(0)} s`,
      ...examples.map((e) => `  e.g. ${e}`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    process.exitCode = counts.contradictions === 0 && counts.duplicates === 0 && counts.stuck === 0 ? 0 : 1;
  } finally {
    await platform.stop();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`status-truth failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  })
  .finally(async () => {
    await group.stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  });
