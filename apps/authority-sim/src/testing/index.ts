export * from './sim-records';
export * from './test-simulator';
