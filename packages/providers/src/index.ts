export * from './adapter';
export * from './network-failure';
export * from './config-fields';
export * from './simulator';
export * from './smtp';
export * from './push-address';
export * from './web-push';
export * from './config';
