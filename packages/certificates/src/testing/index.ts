export * from './test-pki';
export * from './write-test-certificates';
export * from './test-key-pool';
