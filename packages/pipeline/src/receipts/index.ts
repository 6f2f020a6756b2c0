export * from './keys';
export * from './receipt-types';
export * from './receipt-service';
