import { PUSH_PAYLOAD_LIMIT_BYTES } from '../limits';

export interface PushPayload {
  title: string;
  body: string;
  data?: Record<string, string>;
}

export interface PushMessage {
  payload: PushPayload;
  bytes: number;
  truncated: boolean;
}

const byteLength = (payload: PushPayload) => Buffer.byteLength(JSON.stringify(payload), 'utf8');

/** The smallest payload a push can be shortened to (an elided body): when it does not fit, nothing will. */
export function minimalPushBytes(input: Omit<PushPayload, 'body'>): number {
  return byteLength({ ...input, body: '…' });
}

/** Builds the push payload, shortening the body (by code points) until the JSON fits the limit. */
export function formatPush(input: PushPayload, limitBytes = PUSH_PAYLOAD_LIMIT_BYTES): PushMessage {
  const payload: PushPayload = { ...input };
  if (byteLength(payload) <= limitBytes) return { payload, bytes: byteLength(payload), truncated: false };
  const chars = Array.from(input.body);
  let low = 0;
  let high = chars.length;
  // Binary search for the longest body prefix that fits: JSON escaping makes bytes non-linear.
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (byteLength({ ...payload, body: `${chars.slice(0, mid).join('')}…` }) <= limitBytes) low = mid;
    else high = mid - 1;
  }
  const fitted: PushPayload = { ...payload, body: `${chars.slice(0, low).join('')}…` };
  if (byteLength(fitted) > limitBytes) {
    throw new RangeError(`push payload cannot fit ${limitBytes} bytes even with an empty body (title or data too large)`);
  }
  return { payload: fitted, bytes: byteLength(fitted), truncated: true };
}
