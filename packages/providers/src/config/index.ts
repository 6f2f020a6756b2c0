export * from './providers-file';
export * from './create-adapter';
export * from './provider-directory';
export * from './provider-identity';
