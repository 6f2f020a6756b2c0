import { elapsedMs, type SendResult } from '../adapter';
import { classifySubmitStatus, type StatusOutcome } from './command-status';
import type { RequestResult } from './session-options';

/** The errorClass values the SMPP adapter answers besides `smpp-0x…` command statuses. */
export const SMPP_ERROR_CLASSES = {
  /** The SMSC refused system_id/password/system_type: a configuration error (transient, nothing sent). */
  bindRefused: 'config-bind-refused',
  /** No bound session within `timeouts.unboundWaitMs` (the SMSC is down or re-binding): nothing sent. */
  unbound: 'smpp-unbound',
  /** No place in the window within `timeouts.windowWaitMs`. */
  windowFull: 'smpp-window-full',
  /** A submit_sm was written and no submit_sm_resp came within `timeouts.submitMs`: unknown. */
  timeout: 'timeout',
  /** The session was lost with a submit_sm written and unanswered: unknown. */
  connectionLost: 'smpp-connection-lost',
  /** The adapter was closed while the send waited. */
  closed: 'smpp-closed',
} as const;

/**
 * The providerMessageId of an unknown outcome: no message_id came back, so the adapter names the
 * message after the notification. A submit_sm_resp that arrives late (same session, within two
 * minutes) ties the SMSC's message_id to it, and that message's receipt is reported under this id.
 */
export function pendingMessageId(notificationId: string): string {
  return `pending:${notificationId}`;
}

/** What the SMSC answered for one part. */
export type PartResult =
  | { kind: 'accepted'; messageId: string }
  | { kind: 'refused'; status: StatusOutcome }
  | { kind: 'unknown'; errorClass: string }
  | { kind: 'not-sent'; errorClass: string };

/** The message ids the SMSC gave the accepted parts, in part order. */
export function acceptedIds(results: readonly PartResult[]): string[] {
  return results.flatMap((r) => (r.kind === 'accepted' ? [r.messageId] : []));
}

export function partResult(result: RequestResult): PartResult {
  if (result.kind === 'timeout') return { kind: 'unknown', errorClass: SMPP_ERROR_CLASSES.timeout };
  if (result.kind === 'lost') return { kind: 'unknown', errorClass: SMPP_ERROR_CLASSES.connectionLost };
  const status = result.pdu.command === 'generic_nack' && result.pdu.command_status === 0 ? 0x08 : result.pdu.command_status;
  const classified = classifySubmitStatus(status);
  if (classified.outcome === 'delivered') return { kind: 'accepted', messageId: result.pdu.message_id ?? '' };
  return { kind: 'refused', status: classified };
}

/**
 * One outcome for all parts: delivered when every part got ESME_ROK; otherwise a refusal that
 * is permanent wins (a retry gets the same answer), then unknown (a part may have gone), then
 * transient. Sent when any part was written.
 */
export function combineParts(results: PartResult[], total: number, context: { started: number; notificationId: string; windowWaitMs: number }): SendResult {
  const durationMs = elapsedMs(context.started);
  const accepted = acceptedIds(results);
  const sent = results.some((r) => r.kind !== 'not-sent');
  if (accepted.length === total) return { outcome: 'delivered', durationMs, sent: true, providerMessageId: accepted[0] };
  const partNote = total > 1 ? ` (${accepted.length} of ${total} parts accepted)` : '';
  const permanent = results.find((r) => r.kind === 'refused' && r.status.outcome === 'permanent');
  if (permanent?.kind === 'refused') {
    const { errorClass, message, addressInvalid } = permanent.status;
    return {
      outcome: 'permanent',
      errorClass,
      message: `${message ?? ''}${partNote}`,
      durationMs,
      sent: true,
      ...(addressInvalid ? { addressInvalid } : {}),
    };
  }
  const unknown = results.find((r) => r.kind === 'unknown');
  if (unknown?.kind === 'unknown') {
    const message =
      unknown.errorClass === SMPP_ERROR_CLASSES.timeout ? 'no submit_sm_resp within the submit timeout' : 'the SMPP session was lost before the submit_sm_resp';
    // A timed-out part may still be answered late: the pending id lets its receipt settle the outcome.
    const pending = results.some((r) => r.kind === 'unknown' && r.errorClass === SMPP_ERROR_CLASSES.timeout);
    return {
      outcome: 'unknown',
      errorClass: unknown.errorClass,
      message: `${message}${partNote}`,
      durationMs,
      sent: true,
      ...(pending ? { providerMessageId: pendingMessageId(context.notificationId) } : {}),
    };
  }
  const refused = results.find((r) => r.kind === 'refused');
  if (refused?.kind === 'refused')
    return { outcome: 'transient', errorClass: refused.status.errorClass, message: `${refused.status.message ?? ''}${partNote}`, durationMs, sent: true };
  const notSent = results.find((r) => r.kind === 'not-sent');
  const errorClass = notSent?.kind === 'not-sent' ? notSent.errorClass : SMPP_ERROR_CLASSES.unbound;
  const reason =
    errorClass === SMPP_ERROR_CLASSES.windowFull ? `no place in the SMPP window within ${context.windowWaitMs} ms` : 'the SMPP session was not bound';
  return { outcome: 'transient', errorClass, message: `${reason}${partNote}`, durationMs, sent };
}
