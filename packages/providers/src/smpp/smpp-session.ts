import { PDU, connect, type Session } from 'smpp';
import { BIND_CREDENTIAL_STATUSES, SMPP_STATUS, statusClass, statusName } from './command-status';
import { OutstandingRequests } from './outstanding-requests';
import type { BindFailure, RequestResult, SmppSessionOptions } from './session-options';

/**
 * One bound transceiver session to an SMSC, kept open: bind_transceiver after connect,
 * enquire_link every `enquireLinkMs` (a missing enquire_link_resp counts as a lost session),
 * re-connect and re-bind with doubling backoff after any loss or refusal. Request PDUs carry the
 * session's own sequence numbers; their answers, a timeout or the loss of the session settle them.
 */
export class SmppSession {
  private session: Session | undefined;
  private bound = false;
  private closed = false;
  private attempt = 0;
  private readonly requests = new OutstandingRequests();
  private readonly boundWaiters = new Set<() => void>();
  private reconnectTimer: NodeJS.Timeout | undefined;
  private enquireTimer: NodeJS.Timeout | undefined;
  private lastFailure: BindFailure | undefined;

  constructor(private readonly options: SmppSessionOptions) {}

  get isBound(): boolean {
    return this.bound;
  }

  /** Why the last bind failed (cleared by a successful bind). */
  get bindFailure(): BindFailure | undefined {
    return this.lastFailure;
  }

  start(): void {
    if (!this.closed && !this.session && !this.reconnectTimer) this.open();
  }

  /**
   * Waits up to `waitMs` for a bound session. Answers true when bound; false on timeout, on
   * close, or as soon as a bind is refused for its credentials (waiting longer would not help).
   */
  waitBound(waitMs: number): Promise<boolean> {
    if (this.bound) return Promise.resolve(true);
    if (this.closed || this.lastFailure?.credentials) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.boundWaiters.delete(done);
        resolve(this.bound);
      };
      const timer = setTimeout(done, waitMs);
      this.boundWaiters.add(done);
    });
  }

  /**
   * Writes one request PDU and settles with its answer, `timeout` when none came within
   * `timeoutMs` of writing, or `lost` when the session went first. Answers undefined when
   * nothing was written (not bound, or the socket is not writable). An answer that comes after
   * the timeout (within LATE_ANSWER_MS, on the same session) goes to `onLate`.
   */
  request(command: string, params: Record<string, unknown>, timeoutMs: number, onLate?: (pdu: PDU) => void): Promise<RequestResult> | undefined {
    const session = this.session;
    if (!session || !this.bound) return undefined;
    return this.write(session, command, params, timeoutMs, onLate);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.enquireTimer);
    const session = this.session;
    if (session && this.bound) {
      const answer = this.write(session, 'unbind', {}, 1_000);
      if (answer) await answer;
    }
    this.bound = false;
    this.wakeBoundWaiters();
    if (session) await new Promise<void>((resolve) => session.destroy(() => resolve()));
    this.requests.failAll();
    this.session = undefined;
  }

  private write(
    session: Session,
    command: string,
    params: Record<string, unknown>,
    timeoutMs: number,
    onLate?: (pdu: PDU) => void,
  ): Promise<RequestResult> | undefined {
    const request = this.requests.open(timeoutMs, onLate);
    const pdu = new PDU(command, { ...params, sequence_number: request.sequence });
    // The package writes synchronously to the socket, or answers false when it is not writable.
    let written: boolean;
    try {
      written = session.send(pdu);
    } catch (error) {
      // A PDU the package cannot encode (a programming error): nothing was written.
      request.cancel();
      throw error;
    }
    if (!written) {
      request.cancel();
      return undefined;
    }
    return request.answer;
  }

  private open(): void {
    const { endpoint, timeouts, logger, name } = this.options;
    const session = connect({ host: endpoint.host, port: endpoint.port, tls: endpoint.tls });
    this.session = session;
    const connectTimer = setTimeout(() => {
      this.lastFailure = { credentials: false, errorClass: 'smpp-connect-timeout', message: `no connection to the SMSC within ${timeouts.connectMs} ms` };
      session.destroy();
    }, timeouts.connectMs);
    session.on(endpoint.tls ? 'secureConnect' : 'connect', () => {
      clearTimeout(connectTimer);
      void this.bind(session);
    });
    session.on('pdu', (pdu: PDU) => this.onPdu(session, pdu));
    session.on('error', (error: NodeJS.ErrnoException) => {
      // The package stops reading after a PDU it cannot parse: the session is useless, start over.
      if (!this.bound) this.lastFailure ??= { credentials: false, errorClass: error.code ?? 'smpp-error', message: 'SMSC connection failed' };
      logger.warn({ provider: name, code: error.code ?? 'error' }, 'smpp session error');
      session.destroy();
    });
    session.on('close', () => {
      clearTimeout(connectTimer);
      this.onLost(session);
    });
  }

  private async bind(session: Session): Promise<void> {
    const { endpoint, systemType, timeouts, logger, name } = this.options;
    const answer = this.write(
      session,
      'bind_transceiver',
      { system_id: endpoint.systemId, password: endpoint.password, system_type: systemType, interface_version: 0x34 },
      timeouts.bindMs,
    );
    const result = answer ? await answer : ({ kind: 'lost' } as const);
    if (session !== this.session || this.closed) return;
    if (result.kind === 'response' && result.pdu.command_status === SMPP_STATUS.ESME_ROK) {
      this.bound = true;
      this.attempt = 0;
      this.lastFailure = undefined;
      logger.info({ provider: name }, 'smpp session bound');
      this.enquireTimer = setInterval(() => void this.enquire(session), this.options.enquireLinkMs);
      this.wakeBoundWaiters();
      return;
    }
    if (result.kind === 'response') {
      const status = result.pdu.command_status;
      const credentials = BIND_CREDENTIAL_STATUSES.has(status) || result.pdu.command === 'generic_nack';
      this.lastFailure = credentials
        ? {
            credentials,
            errorClass: 'config-bind-refused',
            message: `the SMSC refused the bind (${statusName(status)}): check systemId, password and systemType of provider ${name}`,
          }
        : { credentials, errorClass: statusClass(status), message: `the SMSC refused the bind (${statusName(status)})` };
      logger.warn({ provider: name, status: statusName(status) }, 'smpp bind refused');
      // Bind failures of credentials wake the senders now: they fail at once as a configuration error.
      if (credentials) this.wakeBoundWaiters();
    } else {
      this.lastFailure = { credentials: false, errorClass: 'smpp-bind-timeout', message: 'no bind_transceiver_resp within the bind timeout' };
      logger.warn({ provider: name }, 'smpp bind not answered');
    }
    session.destroy();
  }

  private async enquire(session: Session): Promise<void> {
    const answer = this.request('enquire_link', {}, this.options.timeouts.enquireLinkMs);
    if (!answer) return;
    const result = await answer;
    if (result.kind === 'timeout' && session === this.session) {
      this.options.logger.warn({ provider: this.options.name }, 'smpp enquire_link not answered: re-binding');
      session.destroy();
    }
  }

  private onPdu(session: Session, pdu: PDU): void {
    if (session !== this.session) return;
    if (pdu.isResponse()) {
      this.requests.settle(pdu);
      return;
    }
    switch (pdu.command) {
      case 'deliver_sm':
        try {
          this.options.onDeliverSm(pdu);
        } catch (error) {
          // Never into the package's read loop: it would stop reading this session.
          this.options.logger.warn({ provider: this.options.name, err: error }, 'smpp deliver_sm handling failed');
        }
        session.send(pdu.response());
        return;
      case 'enquire_link':
        session.send(pdu.response());
        return;
      case 'unbind':
        this.bound = false;
        session.send(pdu.response());
        session.close();
        return;
      default:
        // A request an ESME does not take (data_sm, alert_notification...): refuse it so the SMSC does not wait.
        session.send(pdu.response({ command_status: SMPP_STATUS.ESME_RX_T_APPN }));
    }
  }

  private onLost(session: Session): void {
    if (session !== this.session) return;
    const wasBound = this.bound;
    this.bound = false;
    this.session = undefined;
    clearInterval(this.enquireTimer);
    this.enquireTimer = undefined;
    this.requests.failAll();
    if (this.closed) return;
    if (wasBound) this.options.logger.warn({ provider: this.options.name }, 'smpp session lost: re-binding');
    const { initialMs, maxMs } = this.options.rebind;
    const base = Math.min(maxMs, initialMs * 2 ** Math.min(this.attempt, 20));
    this.attempt++;
    const delay = base / 2 + Math.random() * (base / 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (!this.closed) this.open();
    }, delay);
  }

  private wakeBoundWaiters(): void {
    for (const wake of [...this.boundWaiters]) wake();
  }
}
