import type { Channel, SkipReason } from '@notify/core';

/**
 * A script's return codes by name, exactly as its header lists them (`{ proceed: 0, terminal: 1 }`).
 * Declared `as const` next to the script's typed method; a test checks header and constants agree.
 */
export type ReturnCodes = Readonly<Record<string, number>>;

export interface DecodedReply<C extends ReturnCodes> {
  code: keyof C & string;
  /** The reply's values after the code (empty for a bare-number reply). */
  detail: unknown[];
}

/** Splits a reply `{ code, detail... }` (or a bare code) into the code's name and the rest; an unlisted code throws. */
export function decodeReply<C extends ReturnCodes>(script: string, codes: C, reply: unknown): DecodedReply<C> {
  const [raw, ...detail] = Array.isArray(reply) ? (reply as unknown[]) : [reply];
  const name = namesOf(codes).get(Number(raw));
  if (name === undefined) throw new Error(`Lua script ${script} answered an unlisted code ${String(raw)}`);
  return { code: name, detail };
}

/** Each code table's value -> name, built once (a reply is decoded per script call). */
const codeNames = new WeakMap<ReturnCodes, Map<number, string>>();
function namesOf(codes: ReturnCodes): Map<number, string> {
  let names = codeNames.get(codes);
  if (names === undefined) {
    names = new Map();
    // The first name listed for a value wins (as Object.keys(...).find did).
    for (const [name, value] of Object.entries(codes)) if (!names.has(value)) names.set(value, name);
    codeNames.set(codes, names);
  }
  return names;
}

/** A reply value as text ('' for nil). */
export const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : value === null || value === undefined ? '' : JSON.stringify(value);

/** A channel a script passed over (suppressed, opted out), and why. */
export interface FoundSkip {
  channel: Channel;
  reason: SkipReason;
}

/** A script's 'channel:reason,...' of the channels it passed over. */
export function parseFoundSkips(found: string): FoundSkip[] {
  if (found === '') return [];
  return found.split(',').map((pair) => {
    const [channel, reason] = pair.split(':') as [Channel, SkipReason];
    return { channel, reason };
  });
}
