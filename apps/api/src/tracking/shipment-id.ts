/** A shipment id as the tracking path accepts it: 3 to 64 of [A-Za-z0-9_-], starting alphanumeric. */
const SHIPMENT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export type ShipmentIdCheck = { ok: true; value: string } | { ok: false; reason: string };

/** Validates before any store is called, so a bad id costs no budget and no store read. */
export function checkShipmentId(raw: unknown): ShipmentIdCheck {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, reason: 'is required' };
  if (raw.length < 3 || raw.length > 64) return { ok: false, reason: `must be 3 to 64 characters (got ${raw.length})` };
  if (!SHIPMENT_ID.test(raw)) {
    return { ok: false, reason: 'may contain only letters, digits, "-" and "_", and must start with a letter or digit' };
  }
  return { ok: true, value: raw };
}
