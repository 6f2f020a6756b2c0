import type { AddressInfo } from 'node:net';
import { PDU, createServer, type Server, type Session } from 'smpp';
import { SMPP_STATUS } from '../smpp/command-status';
import type { SmppProviderConfigInput } from '../smpp/config';
import { ESM_CLASS_RECEIPT } from '../smpp/pdu-content';
import { formatReceiptText } from './receipt-text';

/** One submit_sm as the loopback SMSC received it. */
export interface ReceivedSubmit {
  messageId: string;
  sourceAddr: string;
  sourceTon: number;
  sourceNpi: number;
  destinationAddr: string;
  destTon: number;
  destNpi: number;
  esmClass: number;
  dataCoding: number;
  registeredDelivery: number;
  /** The part's text, decoded by the `smpp` package from data_coding (UDH removed). */
  text: string;
  /** The concatenation header (IEI 0x00) when there is one. */
  concat?: { reference: number; total: number; sequence: number };
}

/** What the SMSC does with a submit_sm: answer with a status now, never answer, or hold it until `releaseHeld()`. */
export type SubmitDecision = { answer: 'now'; status?: number } | { answer: 'never' } | { answer: 'hold'; status?: number };

export interface LoopbackSmscOptions {
  systemId: string;
  password: string;
  /** Decides per submit_sm; default: answer ESME_ROK at once. */
  onSubmit?: (submit: ReceivedSubmit) => SubmitDecision;
}

/**
 * An SMSC on loopback built with the `smpp` package's server side, for tests: checks the bind
 * credentials, records every submit_sm (decoded), answers as told, sends delivery receipts and
 * can drop its connections. Not for production.
 */
export class LoopbackSmsc {
  readonly submits: ReceivedSubmit[] = [];
  binds = 0;
  refusedBinds = 0;
  /** enquire_link PDUs received; answered while `answerEnquireLinks` is true. */
  enquireLinks = 0;
  answerEnquireLinks = true;
  onSubmit: (submit: ReceivedSubmit) => SubmitDecision;
  private readonly server: Server;
  private readonly bound = new Set<Session>();
  private readonly held: { session: Session; pdu: PDU; status: number }[] = [];
  private nextId = 0;

  private constructor(private readonly options: LoopbackSmscOptions) {
    this.onSubmit = options.onSubmit ?? (() => ({ answer: 'now' }));
    this.server = createServer((session) => this.onSession(session));
  }

  static async start(options: LoopbackSmscOptions): Promise<LoopbackSmsc> {
    const smsc = new LoopbackSmsc(options);
    await new Promise<void>((resolve, reject) => {
      smsc.server.once('error', reject);
      smsc.server.listen(0, '127.0.0.1', () => resolve());
    });
    return smsc;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** An `smpp` provider entry bound to this SMSC (name `sms-smpp`, its credentials in the URL), with `overrides` on top. */
  providerConfig(overrides: Partial<SmppProviderConfigInput> = {}): SmppProviderConfigInput {
    const { systemId, password } = this.options;
    return {
      kind: 'smpp',
      name: 'sms-smpp',
      url: `smpp://${systemId}:${encodeURIComponent(password)}@127.0.0.1:${this.port}`,
      sourceAddr: 'Notify',
      ...overrides,
    };
  }

  get boundSessions(): number {
    return this.bound.size;
  }

  /** Answers every held submit_sm (in arrival order). */
  releaseHeld(): void {
    for (const { session, pdu, status } of this.held.splice(0))
      session.send(pdu.response(status === 0 ? { message_id: this.idOf(pdu) } : { command_status: status }));
  }

  /** Closes every ESME connection abruptly (a crashed SMSC or a cut link). */
  dropConnections(): void {
    for (const session of this.server.sessions) session.destroy();
  }

  /** Sends a delivery receipt to the bound ESME and resolves when it answered deliver_sm_resp. */
  async sendReceipt(input: { messageId: string; stat: string; err?: string; tlv?: boolean; doneDate?: Date }): Promise<number> {
    const [session] = this.bound;
    if (!session) throw new Error('no bound ESME to send a receipt to');
    const doneDate = input.doneDate ?? new Date();
    const text = formatReceiptText({ id: input.messageId, stat: input.stat, err: input.err, submitDate: doneDate, doneDate });
    const states: Record<string, number> = { DELIVRD: 2, EXPIRED: 3, DELETED: 4, UNDELIV: 5, REJECTD: 8, ENROUTE: 1, ACCEPTD: 6 };
    const pdu = new PDU('deliver_sm', {
      esm_class: ESM_CLASS_RECEIPT,
      data_coding: 0,
      short_message: Buffer.from(text, 'ascii'),
      ...(input.tlv ? { receipted_message_id: input.messageId, message_state: states[input.stat] ?? 7 } : {}),
    });
    return new Promise((resolve) => session.send(pdu, (response) => resolve(response.command_status)));
  }

  async close(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private onSession(session: Session): void {
    session.on('error', () => session.destroy());
    session.on('close', () => this.bound.delete(session));
    session.on('bind_transceiver', (pdu: PDU) => {
      if (pdu.system_id !== this.options.systemId || pdu.password !== this.options.password) {
        this.refusedBinds++;
        session.send(pdu.response({ command_status: SMPP_STATUS.ESME_RINVPASWD }));
        session.close();
        return;
      }
      this.binds++;
      this.bound.add(session);
      session.send(pdu.response({ system_id: 'loopback-smsc' }));
    });
    session.on('enquire_link', (pdu: PDU) => {
      this.enquireLinks++;
      if (this.answerEnquireLinks) session.send(pdu.response());
    });
    session.on('unbind', (pdu: PDU) => {
      this.bound.delete(session);
      session.send(pdu.response());
      session.close();
    });
    session.on('submit_sm', (pdu: PDU) => {
      if (!this.bound.has(session)) {
        session.send(pdu.response({ command_status: SMPP_STATUS.ESME_RINVBNDSTS }));
        return;
      }
      const submit = this.record(pdu);
      const decision = this.onSubmit(submit);
      if (decision.answer === 'never') return;
      const status = decision.status ?? 0;
      if (decision.answer === 'hold') this.held.push({ session, pdu, status });
      else session.send(pdu.response(status === 0 ? { message_id: submit.messageId } : { command_status: status }));
    });
  }

  private readonly ids = new WeakMap<PDU, string>();

  private idOf(pdu: PDU): string {
    return this.ids.get(pdu) ?? '';
  }

  private record(pdu: PDU): ReceivedSubmit {
    const messageId = `m${(++this.nextId).toString(16).padStart(6, '0')}`;
    this.ids.set(pdu, messageId);
    const sm = pdu.short_message;
    let text = '';
    let concat: ReceivedSubmit['concat'];
    if (typeof sm === 'string') text = sm;
    else if (Buffer.isBuffer(sm)) text = sm.toString('latin1');
    else if (sm) {
      text = typeof sm.message === 'string' ? sm.message : sm.message.toString('latin1');
      const header = sm.udh?.find((ie) => ie[0] === 0x00 && ie[1] === 0x03);
      if (header) concat = { reference: header[2] ?? 0, total: header[3] ?? 0, sequence: header[4] ?? 0 };
    }
    const submit: ReceivedSubmit = {
      messageId,
      sourceAddr: pdu.source_addr ?? '',
      sourceTon: pdu.source_addr_ton ?? 0,
      sourceNpi: pdu.source_addr_npi ?? 0,
      destinationAddr: pdu.destination_addr ?? '',
      destTon: pdu.dest_addr_ton ?? 0,
      destNpi: pdu.dest_addr_npi ?? 0,
      esmClass: pdu.esm_class ?? 0,
      dataCoding: pdu.data_coding ?? 0,
      registeredDelivery: pdu.registered_delivery ?? 0,
      text,
      ...(concat ? { concat } : {}),
    };
    this.submits.push(submit);
    return submit;
  }
}

/** Joins the parts of concatenated messages by reference, in sequence order: one text per message. */
export function reassemble(submits: readonly ReceivedSubmit[]): string[] {
  const messages = new Map<string, ReceivedSubmit[]>();
  const order: string[] = [];
  submits.forEach((submit, index) => {
    const key = submit.concat ? `${submit.destinationAddr}/${submit.concat.reference}` : `single/${index}`;
    if (!messages.has(key)) {
      messages.set(key, []);
      order.push(key);
    }
    messages.get(key)?.push(submit);
  });
  return order.map((key) =>
    (messages.get(key) ?? [])
      .slice()
      .sort((a, b) => (a.concat?.sequence ?? 0) - (b.concat?.sequence ?? 0))
      .map((part) => part.text)
      .join(''),
  );
}
