export * from './config';
export * from './fcm-adapter';
export { classifyFcmError } from './fcm-errors';
