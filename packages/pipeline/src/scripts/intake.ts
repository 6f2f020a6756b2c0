import {
  dueIndexKey,
  eventIndexPrefix,
  idempotencyBucketPrefix,
  idempotencyMetaKey,
  notificationKey,
  optOutKey,
  parkedStubPrefix,
  pendingIntakeKey,
  pendingUrgentKey,
  suppressionKey,
  type Channel,
  type NotificationStatus,
  type Priority,
  type QuietRule,
} from '@notify/core';
import type { LuaCommand } from '../lua-commands';
import { decodeReply, parseFoundSkips, text, type FoundSkip } from './script-reply';

/** intake-9.lua's return codes (its header lists the same). */
export const INTAKE_CODES = { created: 0, duplicate: 1, conflict: 2 } as const;

export interface IntakeArgs {
  id: string;
  fingerprint: string;
  tenant: string;
  eventId: string;
  recipientId: string;
  rh: string;
  priority: Priority;
  plan: readonly Channel[];
  firstChannel: Channel;
  content: unknown;
  addresses: Partial<Record<Channel, string>>;
  /** sha256 per channel of the addresses: what the record keeps once it is terminal. */
  addressHashes: Partial<Record<Channel, string>>;
  now: number;
  recordTtlSeconds: number;
  /** How far back archived notifications' compact entries are looked up (default recordTtlSeconds). */
  idempotencyWindowSeconds?: number;
  skips: readonly unknown[];
  /** When to send (ms since the epoch); absent or not ahead of Redis's clock: now. */
  sendAt?: number;
  /** When it expires (ms): kept on the record, checked before every call (begin-attempt-4). */
  expiresAt?: number;
  /** The quiet hours the notification waits out (kept in the record, so a step re-added from it keeps them). */
  quiet?: QuietRule;
  /** The non-required category whose opt-outs apply (kept in the record as `cat` for jobs rebuilt from it). */
  category?: string;
  /**
   * The first step's channels in cascade order (cascadeCandidates): the script starts on the
   * first one neither suppressed nor opted out. Absent: `firstChannel`, unchecked.
   */
  candidates?: readonly Channel[];
  /** Whether the recipient's opt-outs for `category` are read (the tenant has some recorded). */
  readOptOuts?: boolean;
}

export type IntakeReply =
  /** `status`: 'accepted' (the caller adds the first job) or 'scheduled' (the releaser does, when due). */
  | { code: 'created'; status: 'accepted' | 'scheduled'; firstChannel: Channel; skipped: FoundSkip[] }
  /** `firstChannel` is set while the record is still 'accepted' (its first job may be missing). */
  | { code: 'duplicate'; status: NotificationStatus; firstChannel: Channel | undefined }
  | { code: 'conflict' };

/** `partition`: the id's partition (every key of the call carries its tag; set by loadScripts). */
export async function callIntake(command: LuaCommand, a: IntakeArgs, partition = 0): Promise<IntakeReply> {
  const reply = await command(
    notificationKey(a.id, partition),
    pendingIntakeKey(partition),
    idempotencyMetaKey(partition),
    dueIndexKey(partition),
    suppressionKey(a.rh, 'push', partition),
    suppressionKey(a.rh, 'sms', partition),
    suppressionKey(a.rh, 'email', partition),
    optOutKey(a.rh, partition),
    pendingUrgentKey(partition),
    a.id,
    a.fingerprint,
    a.tenant,
    a.eventId,
    a.recipientId,
    a.rh,
    a.priority,
    JSON.stringify(a.plan),
    a.firstChannel,
    JSON.stringify(a.content),
    JSON.stringify(a.addresses),
    a.now,
    a.recordTtlSeconds,
    JSON.stringify(a.skips),
    JSON.stringify(a.addressHashes),
    a.idempotencyWindowSeconds ?? a.recordTtlSeconds,
    idempotencyBucketPrefix(partition),
    a.expiresAt ?? '',
    eventIndexPrefix(partition),
    a.sendAt ?? 0,
    a.quiet ? JSON.stringify(a.quiet) : '',
    a.category ?? '',
    parkedStubPrefix(partition),
    a.candidates?.join(',') ?? '',
    a.readOptOuts ? '1' : '',
  );
  const { code, detail } = decodeReply('intake-9', INTAKE_CODES, reply);
  if (code === 'created') {
    const status = text(detail[0]) === 'scheduled' ? 'scheduled' : 'accepted';
    return { code, status, firstChannel: (text(detail[1]) || a.firstChannel) as Channel, skipped: parseFoundSkips(text(detail[2])) };
  }
  if (code !== 'duplicate') return { code };
  const status = text(detail[0]) as NotificationStatus;
  return { code, status, firstChannel: status === 'accepted' && detail[1] ? (text(detail[1]) as Channel) : undefined };
}
