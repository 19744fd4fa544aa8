export * from './create-simulator';
export * from './simulator-types';
export type { SimulatorCounters, RegisteredRef } from './counters';
export type { StoredRecord } from './registry';
export { expectedHuella } from './record-hash';
export type { ActiveFault, FaultKind, FaultScope, FaultSpec, FaultTiming, InjectedFault } from './faults/fault-types';
export type { FaultFilter } from './faults/fault-book';
export { RULE_SETS, type RuleSetId } from './rules/rule-set';
export type { LoggedRequest } from './request-log';
