export * from './build-registration-record';
export * from './build-cancellation-record';
export * from './message-limits';
