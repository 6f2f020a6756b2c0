import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { budgetedGetJson, DependencyFailedError, type BudgetObserver, type StepContext, type TrackingStep } from '@notify/budget-chain';
import { deliveryStatusSchema, measurementSchema, tariffSchema, type DeliveryStatus, type Measurement, type Tariff } from './records';

/** The three reads of the tracking query; each runs inside its step's deadline. */
export interface TrackingStores {
  deliveryOps(context: StepContext, shipmentId: string): Promise<DeliveryStatus>;
  tariff(context: StepContext, shipmentId: string): Promise<Tariff>;
  measurement(context: StepContext, shipmentId: string): Promise<Measurement>;
}

export interface HttpTrackingStoresOptions {
  readonly storeUrls: Readonly<Record<TrackingStep, string>>;
  readonly dispatcher: Dispatcher;
  readonly cancel: boolean;
  /** See BudgetedGetOptions.cancelGraceMs: how long an expired read may still answer before its socket is closed. @defaultValue 0 */
  readonly cancelGraceMs?: number;
  readonly observer?: BudgetObserver;
}

/** Store reads over HTTP: GET `<base>/stores/<store>/<id>` with the step's remaining time. */
export function createHttpTrackingStores(options: HttpTrackingStoresOptions): TrackingStores {
  const base = (store: TrackingStep): string => `${options.storeUrls[store].replace(/\/+$/, '')}/stores/${store}/`;
  const bases: Readonly<Record<TrackingStep, string>> = { 'delivery-ops': base('delivery-ops'), tariff: base('tariff'), measurement: base('measurement') };
  const read = async <S extends z.ZodType>(store: TrackingStep, schema: S, context: StepContext, shipmentId: string): Promise<z.infer<S>> => {
    const url = `${bases[store]}${encodeURIComponent(shipmentId)}`;
    const body = await budgetedGetJson(url, {
      deadline: context.deadline,
      step: context.step,
      dispatcher: options.dispatcher,
      cancel: options.cancel,
      cancelGraceMs: options.cancelGraceMs,
      observer: options.observer,
    });
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new DependencyFailedError(context.step, `${store} answered a record of unexpected shape`, { upstreamStatus: 200 });
    return parsed.data;
  };
  return {
    deliveryOps: (context, id) => read('delivery-ops', deliveryStatusSchema, context, id),
    tariff: (context, id) => read('tariff', tariffSchema, context, id),
    measurement: (context, id) => read('measurement', measurementSchema, context, id),
  };
}
