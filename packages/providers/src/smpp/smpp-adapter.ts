import type { PDU } from 'smpp';
import { elapsedMs, type ProviderAdapter, type ProviderCapabilities, type ProviderReceipt, type SendRequest, type SendResult } from '../adapter';
import { classifySubmitStatus, statusName, type StatusOutcome } from './command-status';
import { resolveSmppEndpoint, smppProviderConfigSchema, type SmppProviderConfig, type SmppProviderConfigInput } from './config';
import { ESM_CLASS_RECEIPT, REGISTERED_DELIVERY_FINAL, buildSegments, concatReference, smppAddress, type SmppSegment } from './pdu-content';
import { parseReceipt, type ParsedReceipt } from './receipt';
import { ReceiptTracker, type TrackedMessage } from './receipt-tracker';
import { SILENT_LOGGER, SmppSession, type RequestResult, type SmppLogger } from './smpp-session';
import { SmppWindow } from './window';

export const SMPP_CAPABILITIES: ProviderCapabilities = { idempotencyKey: false, lookup: false, receipts: true };

/** The errorClass values this adapter answers besides `smpp-0x…` command statuses. */
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

export interface SmppAdapterOptions {
  logger?: SmppLogger;
}

/** What the SMSC answered for one part. */
type PartResult =
  | { kind: 'accepted'; messageId: string }
  | { kind: 'refused'; status: StatusOutcome }
  | { kind: 'unknown'; errorClass: string }
  | { kind: 'not-sent'; errorClass: string };

/**
 * SMS over SMPP 3.4: one bound transceiver session per provider (opened at construction, kept
 * open and re-bound on loss), one submit_sm per part with registered_delivery = 1, several parts
 * and messages outstanding at once within the window. Delivery receipts (deliver_sm) reach the
 * `onReceipt` listeners as `ProviderReceipt`s with the providerMessageId `send` answered.
 */
export class SmppAdapter implements ProviderAdapter {
  readonly kind = 'smpp' as const;
  readonly channel = 'sms' as const;
  readonly capabilities = SMPP_CAPABILITIES;
  readonly name: string;
  private readonly session: SmppSession;
  private readonly window: SmppWindow;
  private readonly listeners: ((receipt: ProviderReceipt) => void)[] = [];
  private readonly tracker = new ReceiptTracker();
  private readonly logger: SmppLogger;
  private readonly config: SmppProviderConfig;
  private closed = false;

  /** Parses the config (a parsed one parses to itself) and starts binding the session. */
  constructor(input: SmppProviderConfigInput | SmppProviderConfig, options: SmppAdapterOptions = {}) {
    const config = smppProviderConfigSchema.parse(input);
    this.config = config;
    this.name = config.name;
    this.logger = options.logger ?? SILENT_LOGGER;
    this.window = new SmppWindow(config.window);
    this.session = new SmppSession({
      name: config.name,
      endpoint: resolveSmppEndpoint(config),
      systemType: config.systemType,
      timeouts: config.timeouts,
      enquireLinkMs: config.enquireLinkMs,
      rebind: config.rebind,
      logger: this.logger,
      onDeliverSm: (pdu) => this.onDeliverSm(pdu),
    });
    this.session.start();
  }

  /** True while the session is bound (for a health check). */
  get bound(): boolean {
    return this.session.isBound;
  }

  async send(request: SendRequest): Promise<SendResult> {
    if (request.message.channel !== 'sms') throw new Error(`SMPP provider ${this.name} sends SMS, not ${request.message.channel}`);
    if (typeof request.to !== 'string') throw new Error(`SMPP provider ${this.name} needs a phone number as the address`);
    const started = performance.now();
    const { timeouts } = this.config;
    const notSent = (errorClass: string, message: string): SendResult => ({
      outcome: 'transient',
      errorClass,
      message,
      durationMs: elapsedMs(started),
      sent: false,
    });

    if (this.closed) return notSent(SMPP_ERROR_CLASSES.closed, 'the SMPP provider is closed');
    if (!(await this.session.waitBound(timeouts.unboundWaitMs))) return this.unboundResult(started);

    const segments = buildSegments(request.message.sms, concatReference(request.notificationId));
    const source = smppAddress(this.config.sourceAddr);
    const destination = smppAddress(request.to);
    const parts: Promise<PartResult>[] = [];
    // Late submit_sm_resps (after the timeout) wait here until the outcome is known, then go to onLateAnswer.
    const lateAnswers: PDU[] = [];
    let onLate: (pdu: PDU) => void = (pdu) => {
      lateAnswers.push(pdu);
    };
    for (const segment of segments) {
      if (!(await this.window.acquire(timeouts.windowWaitMs))) {
        parts.push(Promise.resolve({ kind: 'not-sent', errorClass: SMPP_ERROR_CLASSES.windowFull }));
        break;
      }
      let answer: Promise<RequestResult> | undefined;
      try {
        answer = this.closed
          ? undefined
          : this.session.request('submit_sm', submitParams(source, destination, segment), timeouts.submitMs, (pdu) => onLate(pdu));
      } catch (error) {
        this.window.release();
        throw error;
      }
      if (!answer) {
        this.window.release();
        parts.push(Promise.resolve({ kind: 'not-sent', errorClass: this.closed ? SMPP_ERROR_CLASSES.closed : SMPP_ERROR_CLASSES.unbound }));
        break;
      }
      parts.push(
        answer.then((result) => {
          this.window.release();
          return partResult(result);
        }),
      );
    }
    const partResults = await Promise.all(parts);
    const result = this.combine(partResults, segments.length, started, request.notificationId);
    if (result.outcome === 'unknown' && result.providerMessageId !== undefined) {
      const accepted = partResults.flatMap((r) => (r.kind === 'accepted' ? [r.messageId] : []));
      const message = this.tracker.track(result.providerMessageId, segments.length, accepted);
      onLate = (pdu) => this.onLateAnswer(message, pdu);
      for (const pdu of lateAnswers.splice(0)) onLate(pdu);
    }
    return result;
  }

  onReceipt(listener: (receipt: ProviderReceipt) => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.window.close();
    await this.session.close();
  }

  private unboundResult(started: number): SendResult {
    const failure = this.session.bindFailure;
    if (this.closed)
      return {
        outcome: 'transient',
        errorClass: SMPP_ERROR_CLASSES.closed,
        message: 'the SMPP provider is closed',
        durationMs: elapsedMs(started),
        sent: false,
      };
    if (failure?.credentials)
      return { outcome: 'transient', errorClass: SMPP_ERROR_CLASSES.bindRefused, message: failure.message, durationMs: elapsedMs(started), sent: false };
    const why = failure ? ` (last bind: ${failure.errorClass})` : '';
    return {
      outcome: 'transient',
      errorClass: SMPP_ERROR_CLASSES.unbound,
      message: `no bound SMPP session within ${this.config.timeouts.unboundWaitMs} ms${why}`,
      durationMs: elapsedMs(started),
      sent: false,
    };
  }

  /**
   * One outcome for all parts: delivered when every part got ESME_ROK; otherwise a refusal that
   * is permanent wins (a retry gets the same answer), then unknown (a part may have gone), then
   * transient. Sent when any part was written.
   */
  private combine(results: PartResult[], total: number, started: number, notificationId: string): SendResult {
    const durationMs = elapsedMs(started);
    const accepted = results.flatMap((r) => (r.kind === 'accepted' ? [r.messageId] : []));
    const sent = results.some((r) => r.kind !== 'not-sent');
    if (accepted.length === total) {
      this.tracker.track(accepted[0] ?? '', total, accepted);
      return { outcome: 'delivered', durationMs, sent: true, providerMessageId: accepted[0] };
    }
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
        unknown.errorClass === SMPP_ERROR_CLASSES.timeout
          ? 'no submit_sm_resp within the submit timeout'
          : 'the SMPP session was lost before the submit_sm_resp';
      // A timed-out part may still be answered late: the pending id lets its receipt settle the outcome.
      const pending = results.some((r) => r.kind === 'unknown' && r.errorClass === SMPP_ERROR_CLASSES.timeout);
      return {
        outcome: 'unknown',
        errorClass: unknown.errorClass,
        message: `${message}${partNote}`,
        durationMs,
        sent: true,
        ...(pending ? { providerMessageId: pendingMessageId(notificationId) } : {}),
      };
    }
    const refused = results.find((r) => r.kind === 'refused');
    if (refused?.kind === 'refused')
      return { outcome: 'transient', errorClass: refused.status.errorClass, message: `${refused.status.message ?? ''}${partNote}`, durationMs, sent: true };
    const notSent = results.find((r) => r.kind === 'not-sent');
    const errorClass = notSent?.kind === 'not-sent' ? notSent.errorClass : SMPP_ERROR_CLASSES.unbound;
    const reason =
      errorClass === SMPP_ERROR_CLASSES.windowFull
        ? `no place in the SMPP window within ${this.config.timeouts.windowWaitMs} ms`
        : 'the SMPP session was not bound';
    return { outcome: 'transient', errorClass, message: `${reason}${partNote}`, durationMs, sent };
  }

  /** A submit_sm_resp after its timeout: an accepted part joins its message; a refused one settles it undeliverable. */
  private onLateAnswer(message: TrackedMessage, pdu: PDU): void {
    const status = pdu.command === 'generic_nack' && pdu.command_status === 0 ? 0x08 : pdu.command_status;
    if (status === 0 && pdu.message_id) {
      this.tracker.addPart(message, pdu.message_id);
      return;
    }
    const receipt = this.tracker.fail(message, { state: 'undeliverable', at: Date.now(), detail: `late submit_sm_resp ${statusName(status)}` });
    if (receipt) this.emit(receipt);
  }

  private onDeliverSm(pdu: PDU): void {
    if (((pdu.esm_class ?? 0) & 0x3c) !== ESM_CLASS_RECEIPT) {
      this.logger.info({ provider: this.name }, 'smpp deliver_sm that is no delivery receipt (mobile-originated): acknowledged and ignored');
      return;
    }
    const parsed = parseReceipt({ text: shortMessageText(pdu.short_message), receiptedMessageId: pdu.receipted_message_id, messageState: pdu.message_state });
    const receipt = parsed && this.tracker.settle(parsed);
    if (receipt) this.emit(receipt);
  }

  private emit(receipt: ParsedReceipt): void {
    const event: ProviderReceipt = { provider: this.name, ...receipt };
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.logger.warn({ provider: this.name, err: error }, 'smpp receipt listener failed');
      }
    }
  }
}

/** The configured SMPP provider; its session starts binding now. */
export function createSmppAdapter(config: SmppProviderConfigInput | SmppProviderConfig, options: SmppAdapterOptions = {}): SmppAdapter {
  return new SmppAdapter(config, options);
}

function submitParams(source: ReturnType<typeof smppAddress>, destination: ReturnType<typeof smppAddress>, segment: SmppSegment): Record<string, unknown> {
  return {
    source_addr_ton: source.ton,
    source_addr_npi: source.npi,
    source_addr: source.addr,
    dest_addr_ton: destination.ton,
    dest_addr_npi: destination.npi,
    destination_addr: destination.addr,
    esm_class: segment.esmClass,
    registered_delivery: REGISTERED_DELIVERY_FINAL,
    data_coding: segment.dataCoding,
    short_message: segment.shortMessage,
  };
}

function partResult(result: RequestResult): PartResult {
  if (result.kind === 'timeout') return { kind: 'unknown', errorClass: SMPP_ERROR_CLASSES.timeout };
  if (result.kind === 'lost') return { kind: 'unknown', errorClass: SMPP_ERROR_CLASSES.connectionLost };
  const status = result.pdu.command === 'generic_nack' && result.pdu.command_status === 0 ? 0x08 : result.pdu.command_status;
  const classified = classifySubmitStatus(status);
  if (classified.outcome === 'delivered') return { kind: 'accepted', messageId: result.pdu.message_id ?? '' };
  return { kind: 'refused', status: classified };
}

function shortMessageText(value: PDU['short_message']): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  return typeof value.message === 'string' ? value.message : value.message.toString('latin1');
}
