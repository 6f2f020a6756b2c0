import type { Channel, NotificationRequest, NotificationStatus, TenantLimitState, TenantSettings } from '@notify/core';
import type { PipelineMetrics, TenantMetrics } from '@notify/metrics';
import type { IntakeBacklog } from '../backpressure/intake-backlog';
import type { ChannelGate } from '../channel-gate';
import type { ChannelQueues } from '../channel-queues';
import type { ConsentSettings } from '../consent/consent-settings';
import type { StepJobData } from '../job-data';
import type { RecipientStore } from '../recipient-store';
import type { ReplicaWaiter } from '../replica-wait';
import type { IntakeArgs, Scripts } from '../scripts';
import type { TenantLimiter } from '../tenant-limits/tenant-limiter';

export interface IntakeConfig {
  /** How long a record (idempotency key, status, history) lives; at least 24 h. */
  recordTtlSeconds: number;
  /** How far back intake looks for compact entries of archived notifications (the idempotency window). */
  idempotencyWindowSeconds?: number;
  budget: number;
  /** SCHEDULE_MAX_AHEAD: how far ahead a `sendAt` may be (default 30 days). */
  scheduleMaxAheadSeconds?: number;
}

export interface IntakeDeps {
  scripts: Scripts;
  queues: ChannelQueues;
  recipients: RecipientStore;
  gate: ChannelGate;
  metrics: PipelineMetrics;
  config: IntakeConfig;
  now?: () => number;
  /** WAIT for replicas after the writes, before the 202 (INTAKE_WAIT_REPLICAS; absent or 0 = no WAIT). */
  replication?: ReplicaWaiter;
  /**
   * Whether some configured provider of the channel can carry this address (Web Push takes
   * subscriptions, FCM device tokens). Absent: every address is carriable (the simulators).
   */
  carriable?: (channel: Channel, address: string) => boolean;
  /** The tenants' categories (docs/preferences.md); absent: a notification's category is not checked. */
  consent?: Pick<ConsentSettings, 'category' | 'tenant'>;
  /** The tenant's defaults (TENANTS_FILE): its time zone and quiet hours. Absent: no tenant has any. */
  tenantSettings?: (tenant: string) => TenantSettings | undefined;
  /** The lanes' backlog: new work is refused while they are behind (docs/backpressure.md); absent: never. */
  backlog?: Pick<IntakeBacklog, 'refusal'>;
  /** The tenants' rate and daily quota (docs/tenants.md); absent: no tenant is limited. */
  limiter?: TenantLimiter;
  /** Notifications accepted and refused by the limits, per tenant; absent: not counted. */
  tenantMetrics?: TenantMetrics;
}

export type IntakeResult = { kind: 'accepted'; id: string; status: NotificationStatus } | { kind: 'duplicate'; id: string; status: NotificationStatus };

/** What intake answers: the result and, for a tenant under limits, where it stands (the RateLimit headers). */
export type IntakeAnswer = IntakeResult & { limit?: TenantLimitState };

export interface BatchIntake {
  results: BatchItemResult[];
  /** The tenant's limits after the batch's one take; absent when it has none. */
  limit?: TenantLimitState;
  /** Some items were refused because the lanes are behind: when to offer them again. */
  retryAfterSeconds?: number;
}

export interface BatchItemResult {
  index: number;
  httpStatus: number;
  id?: string;
  status?: NotificationStatus;
  duplicate?: boolean;
  error?: { code: string; message: string; details?: { field: string; reason: string }[] };
}

/** A validated request and the intake script's arguments for it. */
export interface PreparedIntake {
  request: NotificationRequest;
  args: IntakeArgs;
  /** What the step jobs carry of the category (nothing for a required one). */
  job?: Pick<StepJobData, 'category' | 'tenant'>;
}
