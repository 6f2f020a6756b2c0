import type { AttemptOutcome } from '@notify/core';

/** SMPP 3.4 command_status values this adapter names (§5.1.3). */
export const SMPP_STATUS = {
  ESME_ROK: 0x00,
  ESME_RINVMSGLEN: 0x01,
  ESME_RINVBNDSTS: 0x04,
  ESME_RSYSERR: 0x08,
  ESME_RINVSRCADR: 0x0a,
  ESME_RINVDSTADR: 0x0b,
  ESME_RBINDFAIL: 0x0d,
  ESME_RINVPASWD: 0x0e,
  ESME_RINVSYSID: 0x0f,
  ESME_RMSGQFUL: 0x14,
  ESME_RINVESMCLASS: 0x43,
  ESME_RSUBMITFAIL: 0x45,
  ESME_RINVSRCTON: 0x48,
  ESME_RINVSRCNPI: 0x49,
  ESME_RINVDSTTON: 0x50,
  ESME_RINVDSTNPI: 0x51,
  ESME_RINVSYSTYP: 0x53,
  ESME_RTHROTTLED: 0x58,
  ESME_RX_T_APPN: 0x64,
  ESME_RINVDCS: 0x104,
} as const;

const NAMES = new Map<number, string>(Object.entries(SMPP_STATUS).map(([name, code]) => [code, name]));

/** `smpp-0x0000000b`: the errorClass of a command_status. */
export function statusClass(status: number): string {
  return `smpp-0x${(status >>> 0).toString(16).padStart(8, '0')}`;
}

/** The name of a command_status (`ESME_RINVDSTADR`), or its hex code when it has none here. */
export function statusName(status: number): string {
  return NAMES.get(status) ?? statusClass(status);
}

const TRANSIENT = new Set<number>([
  SMPP_STATUS.ESME_RTHROTTLED,
  SMPP_STATUS.ESME_RMSGQFUL,
  SMPP_STATUS.ESME_RSYSERR,
  SMPP_STATUS.ESME_RX_T_APPN,
  // Not bound (the SMSC lost our bind): the session is re-bound; the next call may work.
  SMPP_STATUS.ESME_RINVBNDSTS,
]);

/** Statuses that say the destination address itself is wrong: permanent, and the address is suppressed. */
const ADDRESS_INVALID = new Set<number>([SMPP_STATUS.ESME_RINVDSTADR, SMPP_STATUS.ESME_RINVDSTTON, SMPP_STATUS.ESME_RINVDSTNPI]);

/** bind_transceiver_resp statuses that mean the configured credentials are wrong (never a network fault). */
export const BIND_CREDENTIAL_STATUSES = new Set<number>([
  SMPP_STATUS.ESME_RBINDFAIL,
  SMPP_STATUS.ESME_RINVPASWD,
  SMPP_STATUS.ESME_RINVSYSID,
  SMPP_STATUS.ESME_RINVSYSTYP,
]);

export interface StatusOutcome {
  outcome: Exclude<AttemptOutcome, 'unknown'>;
  errorClass?: string;
  message?: string;
  addressInvalid?: boolean;
}

/**
 * What a submit_sm_resp's command_status means for the message: ESME_ROK delivered (accepted by
 * the SMSC); throttling, a full queue, a system error → transient; a bad destination → permanent
 * with addressInvalid; anything else (a bad source address, data coding, unknown codes) →
 * permanent, its hex code in errorClass (a retry with the same PDU would get the same answer).
 */
export function classifySubmitStatus(status: number): StatusOutcome {
  if (status === SMPP_STATUS.ESME_ROK) return { outcome: 'delivered' };
  const errorClass = statusClass(status);
  const name = statusName(status);
  if (TRANSIENT.has(status)) return { outcome: 'transient', errorClass, message: `SMSC answered ${name}` };
  if (ADDRESS_INVALID.has(status)) return { outcome: 'permanent', errorClass, message: `SMSC answered ${name}: invalid destination`, addressInvalid: true };
  return { outcome: 'permanent', errorClass, message: `SMSC answered ${name}` };
}
