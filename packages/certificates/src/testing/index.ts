export * from './test-pki';
