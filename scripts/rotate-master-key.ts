/**
 * `npm run rotate-master-key`: moves every stored secret to a new random master key.
 *
 * With the key in a file (MASTER_KEY_FILE, var/master-key by default outside production): stages the new key in
 * `<file>.next`, re-encrypts every taxpayer's certificate and password, webhook signing
 * secret and kept idempotent answer in one transaction, then makes the new key
 * current and keeps the old one as `<file>.previous`. Run it again after an interruption and it carries on.
 * With the key in MASTER_KEY, the new key is written to `--out` (default var/master-key.new) for the operator to
 * move into their secret store. No key is ever printed. Restart the API and workers afterwards.
 */
import { existsSync } from 'node:fs';
import { masterKeyId, rotateStoredSecrets } from '@vf/certificates';
import { commitNextMasterKey, ensureMasterKeyFile, loadConfig, readMasterKeyFile, stageNextMasterKey } from '@vf/config';
import { createDatabase } from '@vf/db';
import { createLogger } from '@vf/logger';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ service: 'rotate-master-key', level: config.logLevel });
  const keys = [config.masterKey];
  const file = config.masterKeyFile;
  const outArg = process.argv.indexOf('--out');
  const out = outArg >= 0 ? process.argv[outArg + 1] : 'var/master-key.new';
  // After an interruption between the two renames, rows may be under the previous key: it can open them still.
  if (file && existsSync(`${file}.previous`)) keys.push(readMasterKeyFile(`${file}.previous`));
  const next = file ? stageNextMasterKey(file) : ensureMasterKeyFile(out);

  const database = createDatabase(config.databaseUrl, { max: 1, poolMode: config.databasePoolMode });
  database.pool.on('error', (err) => logger.warn({ err }, 'database connection lost'));
  try {
    const result = await rotateStoredSecrets(database.pool, keys, next);
    logger.info({ ...result, from: masterKeyId(config.masterKey), to: masterKeyId(next) }, 'stored secrets re-encrypted');
  } finally {
    await database.close();
  }
  if (file) {
    commitNextMasterKey(file);
    logger.info(
      { file, previous: `${file}.previous` },
      'new master key installed; restart the API and workers, then delete the previous key file',
    );
  } else {
    logger.info({ file: out }, 'new master key written: set MASTER_KEY to its content, restart the API and workers, then delete the file');
  }
}

main().catch((err) => {
  process.stderr.write(`rotate-master-key failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
