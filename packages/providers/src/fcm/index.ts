export * from './config';
export * from './fcm-adapter';
