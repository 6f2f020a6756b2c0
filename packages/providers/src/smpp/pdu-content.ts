import type { PDU } from 'smpp';
import { gsm7Septets, isGsm7, type SmsMessage } from '@notify/core';
import { encodings } from 'smpp';

/** SMPP data_coding: 0 = SMSC default alphabet (GSM 03.38, one septet per octet, unpacked), 8 = UCS-2 big-endian. */
export const DATA_CODING = { GSM7: 0x00, UCS2: 0x08 } as const;
/** esm_class bit: short_message starts with a user data header. */
export const ESM_CLASS_UDHI = 0x40;
/** esm_class bits 2-5 of a deliver_sm: 0x04 = SMSC delivery receipt. */
export const ESM_CLASS_RECEIPT = 0x04;
/** registered_delivery = 1: ask for a receipt on final success or failure. */
export const REGISTERED_DELIVERY_FINAL = 0x01;

const SINGLE = { GSM7: 160, UCS2: 70 } as const;
const PER_PART = { GSM7: 153, UCS2: 67 } as const;

/** One submit_sm's payload. */
export interface SmppSegment {
  shortMessage: Buffer;
  dataCoding: number;
  esmClass: number;
}

/**
 * The submit_sm payloads of one rendered SMS: one part, or several with a concatenation UDH
 * (IEI 0x00, 8-bit reference, total, sequence). Parts are cut at a character: never half a
 * GSM-7 escape pair or half a UTF-16 surrogate pair. GSM-7 text is sent unpacked (one septet
 * per octet), the SMSC default alphabet encoded by the `smpp` package's GSM 03.38 table.
 */
export function buildSegments(sms: SmsMessage, reference: number): SmppSegment[] {
  const gsm = sms.encoding === 'GSM-7' && isGsm7(sms.text);
  const kind = gsm ? 'GSM7' : 'UCS2';
  const size = (char: string) => (gsm ? (gsm7Septets(char) ?? 1) : char.length);
  const encode = (text: string) => (gsm ? encodings.ASCII.encode(text) : encodeUcs2(text));
  const dataCoding = gsm ? DATA_CODING.GSM7 : DATA_CODING.UCS2;

  let total = 0;
  for (const char of sms.text) total += size(char);
  if (total <= SINGLE[kind]) return [{ shortMessage: encode(sms.text), dataCoding, esmClass: 0 }];

  const parts: string[] = [];
  let current = '';
  let used = 0;
  for (const char of sms.text) {
    const units = size(char);
    if (used + units > PER_PART[kind]) {
      parts.push(current);
      current = '';
      used = 0;
    }
    current += char;
    used += units;
  }
  if (current) parts.push(current);
  if (parts.length > 255) throw new RangeError(`an SMS of ${parts.length} parts cannot be concatenated (at most 255)`);
  const ref = reference & 0xff;
  return parts.map((part, index) => ({
    shortMessage: Buffer.concat([Buffer.from([0x05, 0x00, 0x03, ref, parts.length, index + 1]), encode(part)]),
    dataCoding,
    esmClass: ESM_CLASS_UDHI,
  }));
}

/** UCS-2 as SMPP wants it: UTF-16 big-endian (astral characters as surrogate pairs). */
export function encodeUcs2(text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16();
}

/** A stable 8-bit concatenation reference for a notification (FNV-1a of its id), the same on a re-send. */
export function concatReference(notificationId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < notificationId.length; i++) {
    hash ^= notificationId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash ^ (hash >>> 8) ^ (hash >>> 16) ^ (hash >>> 24)) & 0xff;
}

/** An address with its type of number and numbering plan, as submit_sm carries them. */
export interface SmppAddress {
  addr: string;
  ton: number;
  npi: number;
}

export const TON = { UNKNOWN: 0x00, INTERNATIONAL: 0x01, NATIONAL: 0x02, NETWORK_SPECIFIC: 0x03, ALPHANUMERIC: 0x05 } as const;
export const NPI = { UNKNOWN: 0x00, ISDN: 0x01 } as const;

/**
 * TON/NPI of an address: `+` and digits → international (1) / ISDN E.164 (1), sent without the
 * `+`; digits only → unknown (0) / ISDN (1) (a short code or a national number, routed by the SMSC);
 * anything with a letter → alphanumeric (5) / unknown (0).
 */
export function smppAddress(address: string): SmppAddress {
  if (/^\+[0-9]+$/.test(address)) return { addr: address.slice(1), ton: TON.INTERNATIONAL, npi: NPI.ISDN };
  if (/^[0-9]+$/.test(address)) return { addr: address, ton: TON.UNKNOWN, npi: NPI.ISDN };
  return { addr: address, ton: TON.ALPHANUMERIC, npi: NPI.UNKNOWN };
}

/** The submit_sm fields of one part, asking for a final delivery receipt. */
export function submitParams(
  source: ReturnType<typeof smppAddress>,
  destination: ReturnType<typeof smppAddress>,
  segment: SmppSegment,
): Record<string, unknown> {
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

/** A deliver_sm's short_message as text (receipts are ASCII). */
export function shortMessageText(value: PDU['short_message']): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  return typeof value.message === 'string' ? value.message : value.message.toString('latin1');
}
