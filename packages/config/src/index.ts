export { loadConfig, ConfigError } from './load-config';
export type { AppConfig, AuthorityMode } from './config-schema';
