export * from './config';
export * from './http-sms-adapter';
