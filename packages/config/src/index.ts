export { loadConfig, ConfigError } from './load-config';
export { parseDatabaseUrl, type DatabaseHost, type DatabaseTarget, type TargetSessionAttrs } from './database-url';
export type { AppConfig, AuthorityMode, DatabasePoolMode, RedisSentinel } from './config-schema';
export { makePrivateDir, writePrivateFile } from './private-files';
export {
  commitNextMasterKey,
  DEFAULT_MASTER_KEY_FILE,
  ensureMasterKeyFile,
  readMasterKeyFile,
  stageNextMasterKey,
} from './master-key-file';
export { SERVICE_ENTRY_POINTS, SERVICE_NODE_FLAGS, type ServiceRole } from './service-processes';
