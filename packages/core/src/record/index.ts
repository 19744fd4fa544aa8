export * from './build-registration-record';
export * from './registration-hash-fields';
export * from './build-cancellation-record';
export * from './message-limits';
