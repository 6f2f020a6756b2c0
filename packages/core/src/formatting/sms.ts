import { SMS_SEGMENT_CAP } from '../limits';
import { gsm7Septets, isGsm7 } from './gsm7';

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsMessage {
  text: string;
  encoding: SmsEncoding;
  segments: number;
  truncated: boolean;
}

const SINGLE = { 'GSM-7': 160, 'UCS-2': 70 } as const;
const PER_PART = { 'GSM-7': 153, 'UCS-2': 67 } as const;

/** Length in the encoding's units: septets for GSM-7, UTF-16 code units for UCS-2. */
export function smsUnits(text: string, encoding: SmsEncoding): number {
  if (encoding === 'UCS-2') return text.length;
  let units = 0;
  for (const char of text) units += gsm7Septets(char) ?? 1;
  return units;
}

export function smsSegments(text: string, encoding: SmsEncoding = isGsm7(text) ? 'GSM-7' : 'UCS-2'): number {
  const units = smsUnits(text, encoding);
  if (units <= SINGLE[encoding]) return 1;
  return Math.ceil(units / PER_PART[encoding]);
}

/**
 * Fits a text into at most `maxSegments` parts (each part costs money), cutting at a code
 * point (never half a surrogate pair or half an extension character) and marking the cut.
 */
export function formatSms(text: string, maxSegments = 3): SmsMessage {
  if (!Number.isInteger(maxSegments) || maxSegments < 1 || maxSegments > SMS_SEGMENT_CAP) {
    throw new RangeError(`SMS parts must be between 1 and ${SMS_SEGMENT_CAP}, not ${maxSegments}`);
  }
  const encoding: SmsEncoding = isGsm7(text) ? 'GSM-7' : 'UCS-2';
  const capacity = maxSegments === 1 ? SINGLE[encoding] : PER_PART[encoding] * maxSegments;
  if (smsUnits(text, encoding) <= capacity) {
    return { text, encoding, segments: smsSegments(text, encoding), truncated: false };
  }
  const marker = '...';
  const budget = capacity - smsUnits(marker, encoding);
  let used = 0;
  let cut = '';
  for (const char of text) {
    const size = encoding === 'GSM-7' ? (gsm7Septets(char) ?? 1) : char.length;
    if (used + size > budget) break;
    used += size;
    cut += char;
  }
  const fitted = cut.trimEnd() + marker;
  return { text: fitted, encoding, segments: smsSegments(fitted, encoding), truncated: true };
}
