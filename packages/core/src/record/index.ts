export * from './build-registration-record';
