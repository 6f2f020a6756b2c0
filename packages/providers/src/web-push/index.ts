export * from './config';
export * from './web-push-adapter';
