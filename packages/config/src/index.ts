export { loadConfig, ConfigError } from './load-config';
export type { AppConfig, AuthorityMode } from './config-schema';
export { makePrivateDir, writePrivateFile } from './private-files';
export {
  commitNextMasterKey,
  DEFAULT_MASTER_KEY_FILE,
  ensureMasterKeyFile,
  readMasterKeyFile,
  stageNextMasterKey,
} from './master-key-file';
