import type { Logger } from 'pino';
import { NotifyError, isNotifyError, type NotificationView } from '@notify/core';
import { emptyParkedStore, openHistoryStore, type HistoryStore, type ListFilter, type ListPage, type ParkedStore } from '@notify/history';
import type { HistoryConfig } from '@notify/runtime';

/**
 * The api's view of the history store. The api must run without it (history disabled, or
 * PostgreSQL down or not up yet): the list endpoints then answer 503 DEPENDENCY_UNAVAILABLE,
 * and status by id is still served from Redis for everything not archived yet.
 */
export interface HistoryAccess {
  /** Throws a 503 NotifyError when the history is disabled or does not answer; 400 for a bad cursor. */
  list(tenant: string, filter: ListFilter): Promise<ListPage>;
  /** Undefined when not in the history (or the history is disabled); throws a 503 NotifyError when it does not answer. */
  get(tenant: string, id: string): Promise<NotificationView | undefined>;
  /** A provider event for an archived notification (HistoryStore.update); undefined when not in the history (or disabled); throws a 503 NotifyError when it does not answer. */
  update: HistoryStore['update'];
  /** Scheduled notifications parked in PostgreSQL (GET, cancel, `?status=scheduled`); each call bounded as the others; none when disabled. */
  readonly parked: ParkedStore;
  /** Whether list() can answer now (for the start-up log and tests). */
  readonly state: 'disabled' | 'connecting' | 'open';
  close(): Promise<void>;
}

export interface HistoryAccessOptions {
  /** One query may take this long before the request is answered 503 (a PostgreSQL that hangs). */
  queryTimeoutMs?: number;
  /** First delay between attempts to open the store while PostgreSQL does not answer; doubles up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
  /**
   * How often the open store's partitions are maintained: the coming days created, the days past
   * HISTORY_RETENTION_DAYS dropped. Opening does it once; a process that runs for weeks must
   * repeat it (idempotent and under an advisory lock, so several processes may). Default 1 h.
   */
  maintenanceIntervalMs?: number;
  /** Test seam: how the store is opened. */
  open?: (config: HistoryConfig) => Promise<HistoryStore>;
}

const unavailable = (message: string, cause?: unknown) => new NotifyError('DEPENDENCY_UNAVAILABLE', message, cause === undefined ? {} : { cause });

/** Never the url or an address: only what kind of failure it was. */
const failureKind = (error: unknown): string => (error as { code?: string }).code ?? (error as Error).name ?? 'error';

export function disabledHistory(): HistoryAccess {
  return {
    state: 'disabled',
    list: () =>
      Promise.reject(
        unavailable('the notification history is disabled on this deployment (HISTORY_ENABLED=false): only GET /v1/notifications/{id} answers, from Redis'),
      ),
    get: () => Promise.resolve(undefined),
    update: () => Promise.resolve(undefined),
    parked: emptyParkedStore(),
    close: () => Promise.resolve(),
  };
}

/**
 * Opens the store in the background (migrations run there, under their advisory lock) and keeps
 * trying while PostgreSQL does not answer, so the api starts and serves intake regardless.
 */
export function openHistoryAccess(config: HistoryConfig, logger: Logger, options: HistoryAccessOptions = {}): HistoryAccess {
  if (!config.enabled) return disabledHistory();
  const open = options.open ?? ((c: HistoryConfig) => openHistoryStore({ url: c.url, retentionDays: c.retentionDays, applicationName: 'notify-api' }));
  const queryTimeoutMs = options.queryTimeoutMs ?? 5_000;
  const maxRetryMs = options.maxRetryMs ?? 30_000;
  let store: HistoryStore | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let maintenance: NodeJS.Timeout | undefined;
  let delayMs = options.retryMs ?? 1_000;
  let failures = 0;
  /** The open under way: a request and the retry timer share it, never two at once. */
  let attempting: Promise<void> | undefined;

  const tryOpen = async (): Promise<void> => {
    try {
      const opened = await open(config);
      if (closed) {
        await opened.close();
        return;
      }
      store = opened;
      logger.info({ afterFailures: failures }, 'history store open: list endpoints answer');
      maintenance = setInterval(() => {
        opened.maintainPartitions(Date.now()).catch((error: unknown) => {
          logger.warn({ failure: failureKind(error) }, 'history partition maintenance failed; retried at the next interval');
        });
      }, options.maintenanceIntervalMs ?? 3_600_000);
      maintenance.unref();
    } catch (error) {
      if (closed) return;
      // One warning, then one per ten failures: an outage must not flood the log.
      if (failures % 10 === 0)
        logger.warn({ failure: failureKind(error), retryInMs: delayMs }, 'history store (PostgreSQL) not reachable: list endpoints answer 503 until it is');
      failures += 1;
      clearTimeout(timer);
      timer = setTimeout(() => void attempt(), delayMs);
      timer.unref();
      delayMs = Math.min(delayMs * 2, maxRetryMs);
    }
  };
  /** Opens now, or joins the open under way. Never rejects. */
  const attempt = (): Promise<void> => {
    if (store || closed) return Promise.resolve();
    clearTimeout(timer);
    attempting ??= tryOpen().finally(() => {
      attempting = undefined;
    });
    return attempting;
  };
  void attempt();

  /**
   * The store, or undefined when it does not open within `queryTimeoutMs`. A request that finds
   * none opens it at once (PostgreSQL may be back since the last attempt) instead of waiting for
   * the back-off's next turn.
   */
  const current = async (): Promise<HistoryStore | undefined> => {
    if (store || closed) return store;
    let bound: NodeJS.Timeout | undefined;
    await Promise.race([attempt(), new Promise<void>((resolve) => (bound = setTimeout(resolve, queryTimeoutMs)))]);
    clearTimeout(bound);
    return store;
  };

  /** A store call bounded in time; anything but our own 4xx (a bad cursor) becomes a 503. */
  const call = async <T>(what: string, run: (s: HistoryStore) => Promise<T>): Promise<T> => {
    const opened = await current();
    if (!opened) throw unavailable('the notification history (PostgreSQL) is not reachable yet; retry later');
    let deadline: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        run(opened),
        new Promise<never>((_resolve, reject) => {
          deadline = setTimeout(
            () => reject(Object.assign(new Error(`history ${what} took over ${queryTimeoutMs} ms`), { code: 'QUERY_TIMEOUT' })),
            queryTimeoutMs,
          );
        }),
      ]);
    } catch (error) {
      if (isNotifyError(error)) throw error;
      // The cause as logged: its kind (SQLSTATE or errno), never a message that may hold an address.
      throw unavailable('the notification history (PostgreSQL) did not answer; retry later', new Error(`history ${what} failed: ${failureKind(error)}`));
    } finally {
      clearTimeout(deadline);
    }
  };

  return {
    get state() {
      return store ? 'open' : 'connecting';
    },
    list: (tenant, filter) => call('list', (s) => s.list(tenant, filter)),
    get: (tenant, id) => call('get', (s) => s.get(tenant, id)),
    update: (id, change) => call('update', (s) => s.update(id, change)),
    parked: {
      put: (records) => call('parked put', (s) => s.parked.put(records)),
      due: (partition, untilMs, limit) => call('parked due', (s) => s.parked.due(partition, untilMs, limit)),
      get: (id) => call('parked get', (s) => s.parked.get(id)),
      ofEvent: (tenant, eventId) => call('parked event', (s) => s.parked.ofEvent(tenant, eventId)),
      list: (tenant, filter) => call('parked list', (s) => s.parked.list(tenant, filter)),
      remove: (ids) => call('parked remove', (s) => s.parked.remove(ids)),
      count: (partitions) => call('parked count', (s) => s.parked.count(partitions)),
    },
    close: async () => {
      closed = true;
      clearTimeout(timer);
      clearInterval(maintenance);
      await attempting;
      await store?.close();
      store = undefined;
    },
  };
}
