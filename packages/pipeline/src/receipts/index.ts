export * from './keys';
export * from './receipt-service';
