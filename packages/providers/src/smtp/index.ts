export * from './config';
export * from './smtp-outcome';
export * from './smtp-adapter';
