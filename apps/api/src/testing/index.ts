export * from './api-fixtures';
export * from './test-app';
export { chromiumPath } from './chromium-path';
export { csrfTokenIn, signIn } from '../dashboard/testing/dashboard-agent';
