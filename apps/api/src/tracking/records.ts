import { z } from 'zod';

/**
 * What the three stores answer, validated on receipt: a store that answers 200 with the
 * wrong shape is a failed dependency (502), not a crash in the fee computation.
 */
export const deliveryStatusSchema = z.object({
  shipmentId: z.string(),
  status: z.enum(['created', 'in_transit', 'out_for_delivery', 'delivered', 'returned']),
  updatedAt: z.string(),
});

export const tariffSchema = z.object({
  tariffId: z.string(),
  currency: z.string().length(3),
  baseMinor: z.number().int().nonnegative(),
  perKgMinor: z.number().int().nonnegative(),
});

export const measurementSchema = z.object({
  weightGrams: z.number().int().positive(),
  volumetricGrams: z.number().int().positive(),
});

export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;
export type Tariff = z.infer<typeof tariffSchema>;
export type Measurement = z.infer<typeof measurementSchema>;

export interface Fee {
  readonly currency: string;
  readonly amountMinor: number;
  /** The weight charged for: the larger of actual and volumetric weight. */
  readonly chargeableGrams: number;
}

/** Fee = base + per-kg price x chargeable weight, in minor units, rounded up to a whole unit. */
export function computeFee(tariff: Tariff, measurement: Measurement): Fee {
  const chargeableGrams = Math.max(measurement.weightGrams, measurement.volumetricGrams);
  return {
    currency: tariff.currency,
    amountMinor: tariff.baseMinor + Math.ceil((tariff.perKgMinor * chargeableGrams) / 1000),
    chargeableGrams,
  };
}
