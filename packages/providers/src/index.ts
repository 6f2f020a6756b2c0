export * from './adapter';
