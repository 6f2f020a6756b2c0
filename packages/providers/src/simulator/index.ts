export * from './config';
export * from './simulator-adapter';
