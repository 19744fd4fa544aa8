export * from './test-pki';
export * from './write-test-certificates';
