import { isTerminal, type NotificationView } from '@notify/core';
import {
  BINARIES,
  ensureBinaries,
  startPrivateRedisCluster,
  waitFor,
  type InProcessOptions,
  type PrivateRedisCluster,
  type PrivateRedisClusterOptions,
} from '@notify/platform-kit';
import { Agent, request as undiciRequest } from 'undici';
import { ledgerDeliveries, mapLimited } from '../harness/ledger-keys';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';

/** Partitions the cluster tests run with (the issue's example; spread over 3 masters, each holds 5 or 6). */
export const CLUSTER_PARTITIONS = 16;

/** redis-server (ensured by the harness's globalSetup) and redis-cli (Debian's redis-tools), installed with apt where the user may, as .ci/run does. */
function ensureClusterBinaries(): Promise<void> {
  return ensureBinaries([BINARIES.redisServer, BINARIES.redisCli], {
    env: process.env,
    log: (line) => process.stderr.write(`[cluster setup] ${line}\n`),
  });
}

/** One private Redis Cluster per test file (3 masters + 3 replicas). */
export async function startTestCluster(options: PrivateRedisClusterOptions = {}): Promise<PrivateRedisCluster> {
  await ensureClusterBinaries();
  return startPrivateRedisCluster(options);
}

/**
 * The test platform (simulators, api, workers in this process) on a private Redis Cluster:
 * every part gets REDIS_CLUSTER_NODES and PARTITIONS=16. `platform.cluster` is the cluster.
 */
export async function startClusterPlatform(
  options: Omit<InProcessOptions, 'apiKeys' | 'cluster'> & { cluster?: PrivateRedisClusterOptions } = {},
): Promise<TestPlatform & { cluster: PrivateRedisCluster }> {
  await ensureClusterBinaries();
  const platform = await startTestPlatform({ ...options, cluster: { partitions: CLUSTER_PARTITIONS, ...options.cluster } });
  if (!platform.cluster) throw new Error('the platform did not start on the cluster');
  return platform as TestPlatform & { cluster: PrivateRedisCluster };
}

/** A notification as the status API answers it (wherever its partition lives), or undefined for a 404. */
export async function readView(apiUrl: string, id: string): Promise<NotificationView | undefined> {
  const res = await fetch(`${apiUrl}/v1/notifications/${id}`, { headers: { authorization: `Bearer ${TEST_API_KEY}` }, signal: AbortSignal.timeout(10_000) });
  if (res.status === 404) {
    await res.arrayBuffer();
    return undefined;
  }
  if (!res.ok) throw new Error(`GET /v1/notifications/${id} answered ${res.status}`);
  return (await res.json()) as NotificationView;
}

/** Waits until every notification is terminal, read through the status API (only those still open are read again); returns their views. */
export async function waitAllTerminalViaApi(apiUrl: string, ids: readonly string[], timeoutMs: number): Promise<NotificationView[]> {
  const views = new Map<string, NotificationView>();
  await waitFor(
    `${ids.length} notifications terminal (status API)`,
    async () => {
      const open = ids.filter((id) => !views.has(id));
      const read = await mapLimited(open, 16, async (id) => [id, await readView(apiUrl, id)] as const);
      for (const [id, view] of read) if (view && isTerminal(view.status)) views.set(id, view);
      return views.size === ids.length;
    },
    timeoutMs,
    500,
  );
  return ids.map((id) => views.get(id) as NotificationView);
}

/** How many deliveries the providers' ledger holds for each notification (its provider idempotency key). */
export async function deliveriesPerId(controlUrl: string, ids: readonly string[]): Promise<number[]> {
  return (await ledgerDeliveries(controlUrl, ids)).map((deliveries) => deliveries.length);
}

export interface Accounting {
  accepted: number;
  deliveredOnce: number;
  /** Delivered more than once at the providers. */
  duplicated: string[];
  /** Answered 202, never delivered, and no record (or a record that says delivered with no delivery). */
  lost: string[];
  /** Never delivered and still not terminal. */
  stuck: string[];
  /** Terminal without a delivery (failed, unconfirmed): legitimate only when providers fail. */
  undelivered: string[];
}

/**
 * Every accepted notification accounted for at the providers' side (the simulators' ledger, per
 * provider idempotency key), and through the status API for those with no delivery.
 */
export async function accountFor(platform: TestPlatform, ids: readonly string[]): Promise<Accounting> {
  const counts = await deliveriesPerId(platform.sims.controlUrl, ids);
  const result: Accounting = { accepted: ids.length, deliveredOnce: 0, duplicated: [], lost: [], stuck: [], undelivered: [] };
  const missing: string[] = [];
  ids.forEach((id, i) => {
    const n = counts[i] as number;
    if (n === 1) result.deliveredOnce += 1;
    else if (n > 1) result.duplicated.push(id);
    else missing.push(id);
  });
  const views = await mapLimited(missing, 16, (id) => readView(platform.api.url, id));
  missing.forEach((id, i) => {
    const view = views[i];
    if (!view || view.status === 'delivered') result.lost.push(id);
    else if (!isTerminal(view.status)) result.stuck.push(id);
    else result.undelivered.push(id);
  });
  return result;
}

/** Waits (bounded) until the ledger holds a delivery for `expected` distinct keys; returns false on timeout (the accounting then says what is missing). */
export async function waitDeliveredKeys(controlUrl: string, expected: number, timeoutMs: number): Promise<boolean> {
  return waitFor(
    `${expected} distinct keys delivered`,
    async () => {
      const res = await fetch(`${controlUrl}/ledger`);
      const summary = (await res.json()) as { deliveredKeys: number };
      return summary.deliveredKeys >= expected;
    },
    timeoutMs,
    250,
  ).catch(() => false);
}

/**
 * Waits (bounded) until every accepted notification is delivered or terminal, then accounts for
 * them: first on the ledger's count of distinct keys (cheap), then per notification until none
 * is still open. A timeout returns the last accounting (its `stuck` says what never ended).
 */
export async function settleAndAccount(platform: TestPlatform, ids: readonly string[], timeoutMs: number): Promise<Accounting> {
  const deadline = Date.now() + timeoutMs;
  await waitDeliveredKeys(platform.sims.controlUrl, ids.length, timeoutMs);
  let account = await accountFor(platform, ids);
  // Only the open ones are read again (cheap), then everything is accounted for once more.
  let open = [...account.stuck, ...account.lost];
  while (open.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const views = await mapLimited(open, 16, (id) => readView(platform.api.url, id));
    open = open.filter((_, i) => {
      const view = views[i];
      return !view || !isTerminal(view.status);
    });
  }
  if (account.stuck.length > 0 || account.lost.length > 0) account = await accountFor(platform, ids);
  return account;
}

export function describeAccounting(what: string, a: Accounting): string {
  return (
    `${what}: accepted ${a.accepted}, delivered once ${a.deliveredOnce}, lost ${a.lost.length}, duplicated ${a.duplicated.length}, ` +
    `stuck ${a.stuck.length}, terminal undelivered ${a.undelivered.length}`
  );
}

/** One client's notification offered by `offerAtRate`: every answer it got (0 = no answer) and the last. */
export interface OfferResult {
  index: number;
  /** The id of a 202/200. */
  id?: string;
  /** The last answer's status (after the retries). */
  final: number;
  answers: number[];
  /** 503s without a Retry-After header. */
  unavailableWithoutRetryAfter: number;
  /** Answers other than 202/200/503 and requests without an answer, described (status, code, message). */
  errors: string[];
  /** When it was first sent and when its last answer came, ms after the first offer. */
  sentAt: number;
  doneAt: number;
}

/**
 * One connection per request (undici: pipelining 0 turns keep-alive off): a reused keep-alive
 * socket the server closes as a request goes out ("other side closed") is a race of the
 * client's pool, not an answer of the api, and on a starved machine it is frequent.
 */
const noKeepAlive = new Agent({ pipelining: 0, connections: 4_096 });

/** POSTs one notification; status 0 when no answer came (connection refused, reset, or 30 s without one). */
async function postNotification(apiUrl: string, body: unknown): Promise<{ status: number; id?: string; retryAfter?: number; error?: string }> {
  try {
    const res = await undiciRequest(`${apiUrl}/v1/notifications`, {
      method: 'POST',
      dispatcher: noKeepAlive,
      headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    const json = (await res.body.json().catch(() => ({}))) as { id?: string; error?: { code?: string; message?: string } };
    const retryAfter = res.headers['retry-after'];
    return {
      status: res.statusCode,
      ...(json.id ? { id: json.id } : {}),
      ...(typeof retryAfter === 'string' ? { retryAfter: Number(retryAfter) } : {}),
      ...(json.error ? { error: `${json.error.code}: ${json.error.message}` } : {}),
    };
  } catch (error) {
    const code = (error as { code?: string }).code;
    return { status: 0, error: `${(error as Error).message}${code ? ` (${code})` : ''}` };
  }
}

/**
 * Offers `bodies` as single POSTs at `ratePerSecond` (open loop: the i-th is sent at i/rate s,
 * whatever the earlier ones are waiting for), as clients would: a 503 is retried with the same
 * body after its Retry-After, and so is a request that got no answer, after 1 s (the
 * idempotency key makes both safe), at most `maxTries` times in all. `onOffered` hears how many were sent so far (a test kills nodes on it);
 * once `until` holds no more are sent (the results are those offered).
 */
export async function offerAtRate(
  apiUrl: string,
  bodies: readonly unknown[],
  ratePerSecond: number,
  options: { maxTries: number; onOffered?: (count: number) => void; until?: () => boolean },
): Promise<OfferResult[]> {
  const start = Date.now();
  const offer = async (index: number): Promise<OfferResult> => {
    const result: OfferResult = { index, final: 0, answers: [], unavailableWithoutRetryAfter: 0, errors: [], sentAt: Date.now() - start, doneAt: 0 };
    for (let tries = 1; tries <= options.maxTries; tries += 1) {
      const answer = await postNotification(apiUrl, bodies[index]);
      result.answers.push(answer.status);
      result.final = answer.status;
      result.doneAt = Date.now() - start;
      if (answer.status === 202 || answer.status === 200) {
        result.id = answer.id;
        return result;
      }
      if (answer.status !== 503 && answer.status !== 0) {
        result.errors.push(`${answer.status} ${answer.error ?? ''}`.trim());
        return result;
      }
      if (answer.status === 0) result.errors.push(`no answer: ${answer.error ?? ''}`);
      if (answer.status === 503 && answer.retryAfter === undefined) result.unavailableWithoutRetryAfter += 1;
      // The client's back-off, as the 503 asks, or 1 s after no answer (a protocol delay, not a test waiting on time).
      await new Promise((resolve) => setTimeout(resolve, Math.min(5, answer.retryAfter ?? 1) * 1_000));
    }
    return result;
  };
  const running: Promise<OfferResult>[] = [];
  for (let i = 0; i < bodies.length && !options.until?.(); i += 1) {
    const due = start + (i * 1_000) / ratePerSecond;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    running.push(offer(i));
    options.onOffered?.(i + 1);
  }
  return Promise.all(running);
}

/**
 * Waits (bounded) until every accepted notification is terminal through the status API (only
 * the open ones are read again; no wait on a delivery count, so notifications that end failed
 * cost no time), then accounts for them at the providers' side. A timeout returns the
 * accounting as it is (its `stuck` says what never ended).
 */
export async function settleOpenAndAccount(platform: TestPlatform, ids: readonly string[], timeoutMs: number): Promise<Accounting> {
  const deadline = Date.now() + timeoutMs;
  let open = [...ids];
  while (open.length > 0 && Date.now() < deadline) {
    const views = await mapLimited(open, 16, (id) => readView(platform.api.url, id).catch(() => undefined));
    open = open.filter((_, i) => {
      const view = views[i];
      return !view || !isTerminal(view.status);
    });
    if (open.length > 0) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return accountFor(platform, ids);
}

/** The offers per `bucketMs` of their first sending: how many, their final answers, the slowest (for a failing run's message). */
export function offerTimeline(results: readonly OfferResult[], bucketMs = 5_000): string {
  const buckets = new Map<number, OfferResult[]>();
  for (const r of results) {
    const b = Math.floor(r.sentAt / bucketMs);
    buckets.set(b, [...(buckets.get(b) ?? []), r]);
  }
  return [...buckets]
    .sort(([a], [b]) => a - b)
    .map(([b, rs]) => {
      const finals = new Map<number, number>();
      for (const r of rs) finals.set(r.final, (finals.get(r.final) ?? 0) + 1);
      const slowest = Math.max(...rs.map((r) => r.doneAt - r.sentAt));
      return `${(b * bucketMs) / 1000}s: ${rs.length} sent, ${[...finals].map(([s, n]) => `${s}x${n}`).join(' ')}, slowest ${slowest} ms`;
    })
    .join('; ');
}
