export * from './record-flags';
