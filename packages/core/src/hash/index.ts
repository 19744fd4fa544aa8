export * from './registration-hash';
export * from './cancellation-hash';
