/** Tenant webhooks: endpoints, events, signed delivery through their own queue (docs/webhooks.md). */
export * from './config';
export * from './events';
export * from './keys';
export * from './endpoint';
export * from './registry';
export * from './secret-box';
export * from './ssrf';
export * from './allowed-hosts';
export * from './sender';
export * from './publisher';
export * from './listening-cache';
export * from './delivery-worker';
export * from './service';
export * from './receipt-event-sink';
