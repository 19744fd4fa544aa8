export * from './api-fixtures';
export * from './test-app';
export { csrfTokenIn } from '../dashboard/testing/dashboard-agent';
