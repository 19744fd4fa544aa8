export * from './registration-record';
