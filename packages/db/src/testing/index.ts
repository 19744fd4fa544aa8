export { createTestDatabase, type TestDatabase } from './test-database';
export { default as globalSetup } from './global-setup';
export { default as globalTeardown } from './global-teardown';
