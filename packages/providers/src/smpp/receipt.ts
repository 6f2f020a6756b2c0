import type { ProviderReceipt } from '../adapter';

/** A delivery receipt read from a deliver_sm, before it is tied to a provider name. */
export interface ParsedReceipt {
  providerMessageId: string;
  state: ProviderReceipt['state'];
  at: number;
  detail: string;
}

/** The receipt text's `stat:` values that are final (SMPP 3.4 appendix B); ENROUTE, ACCEPTD, UNKNOWN are not. */
const STAT_STATES: Record<string, ProviderReceipt['state']> = {
  DELIVRD: 'delivered',
  EXPIRED: 'expired',
  UNDELIV: 'undeliverable',
  REJECTD: 'undeliverable',
  DELETED: 'undeliverable',
};

/** The message_state TLV (0x0427) values that are final. */
const MESSAGE_STATES: Record<number, { state: ProviderReceipt['state']; stat: string }> = {
  2: { state: 'delivered', stat: 'DELIVRD' },
  3: { state: 'expired', stat: 'EXPIRED' },
  4: { state: 'undeliverable', stat: 'DELETED' },
  5: { state: 'undeliverable', stat: 'UNDELIV' },
  8: { state: 'undeliverable', stat: 'REJECTD' },
};

export interface ReceiptFields {
  text?: string;
  receiptedMessageId?: string;
  messageState?: number;
}

/**
 * Reads a delivery receipt: the receipted_message_id and message_state TLVs when the SMSC sends
 * them (SMPP 3.4 §5.3.2.12, .35), otherwise the text of appendix B
 * (`id:… sub:… dlvrd:… submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:DELIVRD err:000 text:…`).
 * Answers undefined for a receipt that is not final (ENROUTE, ACCEPTD) or names no message.
 * The time is the `done date` read as UTC (the SMSC's clock), else `now`.
 */
export function parseReceipt(fields: ReceiptFields, now = Date.now()): ParsedReceipt | undefined {
  const text = fields.text ?? '';
  const id = fields.receiptedMessageId?.trim() || /\bid:(\S+)/i.exec(text)?.[1];
  if (!id) return undefined;
  const stat = /\bstat:(\w+)/i.exec(text)?.[1]?.toUpperCase();
  const err = /\berr:(\w+)/i.exec(text)?.[1];
  let state: ProviderReceipt['state'] | undefined;
  let statText = stat;
  if (fields.messageState !== undefined) {
    const fromTlv = MESSAGE_STATES[fields.messageState];
    if (!fromTlv) return undefined;
    state = fromTlv.state;
    statText ??= fromTlv.stat;
  } else if (stat !== undefined) {
    state = STAT_STATES[stat];
  }
  if (!state) return undefined;
  const done = /\bdone date:(\d{10,12})\b/i.exec(text)?.[1];
  const detail = [`stat:${statText ?? state}`, ...(err !== undefined ? [`err:${err}`] : [])].join(' ');
  return { providerMessageId: id, state, at: (done !== undefined ? parseSmppDate(done) : undefined) ?? now, detail };
}

/** `YYMMDDhhmm[ss]` as UTC milliseconds; undefined when it is no valid date. */
export function parseSmppDate(value: string): number | undefined {
  const match = /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)?$/.exec(value);
  if (!match) return undefined;
  const [, yy, mo, dd, hh, mi, ss] = match;
  const at = Date.UTC(2000 + Number(yy), Number(mo) - 1, Number(dd), Number(hh), Number(mi), Number(ss ?? '0'));
  return Number.isNaN(at) || Number(mo) < 1 || Number(mo) > 12 ? undefined : at;
}
