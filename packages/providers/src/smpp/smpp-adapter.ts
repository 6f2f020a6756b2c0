import type { PDU } from 'smpp';
import { elapsedMs, type ProviderAdapter, type ProviderCapabilities, type ProviderReceipt, type SendRequest, type SendResult } from '../adapter';
import { statusName } from './command-status';
import { resolveSmppEndpoint, smppProviderConfigSchema, type SmppProviderConfig, type SmppProviderConfigInput } from './config';
import { ESM_CLASS_RECEIPT, buildSegments, concatReference, shortMessageText, smppAddress, submitParams } from './pdu-content';
import { parseReceipt, type ParsedReceipt } from './receipt';
import { ReceiptTracker, type TrackedMessage } from './receipt-tracker';
import { acceptedIds, combineParts, partResult, SMPP_ERROR_CLASSES, type PartResult } from './part-outcome';
import { SILENT_LOGGER, type RequestResult, type SmppLogger } from './session-options';
import { SmppSession } from './smpp-session';
import { SmppWindow } from './window';

export const SMPP_CAPABILITIES: ProviderCapabilities = { idempotencyKey: false, lookup: false, receipts: true };

export interface SmppAdapterOptions {
  logger?: SmppLogger;
}

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
    const result = combineParts(partResults, segments.length, { started, notificationId: request.notificationId, windowWaitMs: timeouts.windowWaitMs });
    if (result.outcome === 'delivered') this.tracker.track(result.providerMessageId ?? '', segments.length, acceptedIds(partResults));
    if (result.outcome === 'unknown' && result.providerMessageId !== undefined) {
      const message = this.tracker.track(result.providerMessageId, segments.length, acceptedIds(partResults));
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
