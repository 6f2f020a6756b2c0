import type { NotificationRequest } from '@notify/core';
import type { FirstTry } from './urgent-first-try';

export interface HoldOptions {
  rate: number;
  seconds: number;
  /** The first seconds of the hold are not in the steady window (queues and pools fill). */
  settleSeconds: number;
  drainSeconds: number;
  mode: 'batch' | 'single';
  urgentShare: number;
  seed: number;
  /** Urgent notifications whose first-try latency is read back (status API) after the drain. */
  urgentSample: number;
  /** Workers are running (false: api + Redis only, nothing delivers). */
  delivering: boolean;
  /** The history is on: the drain also waits for the archive queue to empty. */
  history?: boolean;
  /** A webhook endpoint listens for `notification.delivered`: its calls must keep up, and the drain waits for them. */
  webhooks?: boolean;
  /** Rewrites each notification before it is sent (`--consent`: its category and recipient). */
  shape?: (request: NotificationRequest, index: number) => NotificationRequest;
}

export interface RateResult {
  offered: number;
  mode: 'batch' | 'single';
  windowSeconds: number;
  acceptedPerSecond: number;
  deliveredPerSecond: number;
  /** Accepted and not yet terminal, at the end of the window; and in seconds of offered traffic. */
  backlogEnd: number;
  backlogSeconds: number;
  /** Backlog growth over the window, notifications per second (> 0: falling behind). */
  backlogSlope: number;
  /** From the end of the hold until every accepted notification was terminal; null if it never was. */
  drainSeconds: number | null;
  sustained: boolean;
  verdict: string;
  /**
   * Over the steady window, per notification that reached a terminal state in it (meaningful
   * when the rate was sustained: a growing backlog charges intake work to fewer deliveries).
   */
  redisCpuUsPerDelivery: number | null;
  scriptCallsPerNotification: number | null;
  roundTripsPerNotification: number | null;
  commandsPerNotification: number | null;
  topCommandsPerNotification: Record<string, number>;
  /**
   * Over the whole hold and its drain, per notification (every accepted one is terminal at the
   * end): the same costs, robust to a noisy machine and to a rate that was not sustained.
   */
  wholeRun: {
    notifications: number;
    redisCpuUs: number | null;
    scriptCalls: number | null;
    roundTrips: number | null;
    commands: number | null;
    /** Of them, delivered. */
    delivered: number;
    /** CPU µs per notification of each process (api, worker, worker-2, simulators, redis, postgres, bench) over the hold and its drain. */
    cpuUs: Record<string, number>;
    /** Every process but the bench's own (generator, webhook receiver): CPU µs per delivered notification. */
    systemCpuUsPerDelivered: number | null;
    /** Redis used_memory after the drain (and the archival) minus before the hold, per terminal notification. */
    redisBytesPerTerminal: number | null;
  } | null;
  /** From the end of the hold until the archive queue was empty (history on); null if it never was. */
  historyDrainSeconds: number | null;
  /** From the end of the hold until every delivered notification's webhook call had succeeded (webhooks on); null if not. */
  webhookDrainSeconds: number | null;
  /** Over the window: records archived to PostgreSQL per second. */
  archivedPerSecond: number;
  /** Terminal records in Redis not yet archived at the end of the window, and the slope over it (/s). */
  historyBacklogEnd: number;
  historyBacklogSlope: number;
  /** Over the window: webhook calls answered 2xx per second, and per notification delivered in it. */
  webhookDeliveriesPerSecond: number;
  /** Webhook calls that failed per second over the window. */
  webhookFailuresPerSecond: number;
  webhooksPerDelivered: number | null;
  intakeP50Ms: number | null;
  intakeP99Ms: number | null;
  urgentFirstTry: FirstTry;
  /**
   * Share of one core per process over the window (redis, api, worker, simulators, bench; with
   * several api instances api, api-2, ... and their sum 'api total'); 'machine': every process on
   * the machine (/proc/stat), 'others': the machine minus the bench's own processes.
   */
  cpu: Record<string, number>;
  failedRequests: number;
  notSent: number;
  /** Over the window: items the api refused (503 BACKLOG_FULL, the lanes behind) per second. */
  refusedPerSecond: number;
  /** Of them, urgent items per second. */
  refusedUrgentPerSecond: number;
  /** An overload hold: the highest sustained rate it is a multiple of. */
  overloadOf?: number;
}
