export * from './sim-records';
export * from './test-simulator';
export * from './xml-tree';
export * from './raw-records';
export * from './raw-consulta';
