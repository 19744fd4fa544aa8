export * from './types';
export * from './validate-invoice-request';
