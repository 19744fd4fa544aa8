export { API_PREFIX, createApp } from './create-app';
export type { AppDeps } from './app-deps';
// The API's error type as it hands it to the dashboard (the dashboard's own tests use it without a database).
export { apiProblems } from './dashboard-api';
