export * from './free-port';
