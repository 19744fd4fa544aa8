export * from './create-simulator';
export * from './simulator-types';
export type { SimulatorCounters, RegisteredRef } from './counters';
export type { StoredRecord } from './registry';
export { expectedHuella } from './record-hash';
