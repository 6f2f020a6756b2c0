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
  const value = Number(raw);
  const name = Object.keys(codes).find((k) => codes[k] === value);
  if (name === undefined) throw new Error(`Lua script ${script} answered an unlisted code ${String(raw)}`);
  return { code: name, detail };
}

/** A reply value as text ('' for nil). */
export const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : value === null || value === undefined ? '' : JSON.stringify(value);
