import type { TrackingStep } from '@notify/budget-chain';

const STATUSES = ['created', 'in_transit', 'out_for_delivery', 'delivered'] as const;

/** FNV-1a: a stable number per shipment id, so the same id always reads the same record. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The record a store answers for a shipment (the api validates these shapes on receipt). */
export function storeRecord(store: TrackingStep, shipmentId: string): Record<string, unknown> {
  const h = hash(shipmentId);
  switch (store) {
    case 'delivery-ops':
      return {
        shipmentId,
        status: STATUSES[h % STATUSES.length],
        updatedAt: new Date(Date.UTC(2026, 0, 1) + (h % 86_400) * 1000).toISOString(),
      };
    case 'tariff':
      return { tariffId: `TRF-${h % 100}`, currency: 'TRY', baseMinor: 2500 + (h % 1000), perKgMinor: 400 + (h % 200) };
    case 'measurement':
      return { weightGrams: 200 + (h % 20_000), volumetricGrams: 200 + ((h >>> 8) % 20_000) };
  }
}
