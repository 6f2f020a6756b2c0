/**
 * The delivery channels in the platform's default order (BI4: the most used first). The
 * order matters to the models: the cascade falls back through it and the random stream
 * draws one value per channel in this order.
 */
export { CHANNELS, type Channel } from '@notify/core';
import type { Channel } from '@notify/core';

/** A value for every channel (a rate, a share, a count). */
export type PerChannel<T> = { readonly [C in Channel]: T };

export { isChannel } from '@notify/core';
