export { API_PREFIX, createApp } from './create-app';
export type { AppDeps } from './app-deps';
