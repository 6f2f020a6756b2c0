import type { PDU } from 'smpp';
import type { SmppEndpoint } from './config';

/** The little of a logger the session uses (pino's signature). */
export interface SmppLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export const SILENT_LOGGER: SmppLogger = { info: () => undefined, warn: () => undefined };

export interface SmppSessionOptions {
  /** The provider's name, for logs. */
  name: string;
  endpoint: SmppEndpoint;
  systemType: string;
  timeouts: { connectMs: number; bindMs: number; enquireLinkMs: number };
  enquireLinkMs: number;
  rebind: { initialMs: number; maxMs: number };
  logger: SmppLogger;
  /** Every deliver_sm the SMSC sends (answered with deliver_sm_resp by the session after this returns). */
  onDeliverSm: (pdu: PDU) => void;
}

/** Why the last bind failed; `credentials` when the SMSC refused the system_id/password/system_type. */
export interface BindFailure {
  credentials: boolean;
  errorClass: string;
  message: string;
}

/** What became of one request PDU. */
export type RequestResult = { kind: 'response'; pdu: PDU } | { kind: 'timeout' } | { kind: 'lost' };
