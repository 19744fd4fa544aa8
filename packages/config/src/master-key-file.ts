import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { writePrivateFile } from './private-files';

/** Where local runs keep their master key when MASTER_KEY is not set. */
export const DEFAULT_MASTER_KEY_FILE = 'var/master-key';

export function parseMasterKey(base64: string, source: string): Buffer {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${source} must hold 32 bytes, base64-encoded`);
  return key;
}

/** Writes a fresh random key readable by its owner only (0600), creating its folder (0700) if needed. */
export function writeNewMasterKey(file: string): Buffer {
  const key = randomBytes(32);
  // Exclusive: never overwrite an existing key (two processes starting at once keep the first one's).
  writePrivateFile(file, `${key.toString('base64')}\n`, { exclusive: true });
  return key;
}

export function readMasterKeyFile(file: string): Buffer {
  return parseMasterKey(readFileSync(file, 'utf8'), file);
}

/** The key in `file`, created at random on first use and reused afterwards. */
export function ensureMasterKeyFile(file: string): Buffer {
  if (existsSync(file)) return readMasterKeyFile(file);
  try {
    return writeNewMasterKey(file);
  } catch (err) {
    if ((err as { code?: string }).code === 'EEXIST') return readMasterKeyFile(file);
    throw err;
  }
}

/**
 * The key a rotation moves to, staged in `<file>.next` (0600) before any secret is re-encrypted: an interrupted
 * rotation finds it again and carries on, so no secret is ever sealed under a key that exists nowhere on disk.
 */
export function stageNextMasterKey(file: string): Buffer {
  return ensureMasterKeyFile(`${file}.next`);
}

/** Makes the staged key current; the old one stays beside it as `<file>.previous` until the operator removes it. */
export function commitNextMasterKey(file: string): void {
  if (existsSync(file)) renameSync(file, `${file}.previous`);
  renameSync(`${file}.next`, file);
}
