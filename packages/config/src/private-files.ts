import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Creates `dir` and its missing parents readable by their owner only (0700) whatever the umask: mkdir's mode goes
 * through the umask, so each folder made here is set explicitly. Folders that already existed are left as they are.
 */
export function makePrivateDir(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (first === undefined) return;
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    chmodSync(current, 0o700);
    if (current === path.resolve(first)) return;
  }
}

/**
 * Writes a secret (a key, a password) readable by its owner only (0600) whatever the umask, in a folder made with
 * makePrivateDir if missing. `exclusive`: fail with EEXIST rather than replace an existing file.
 */
export function writePrivateFile(file: string, content: string | Buffer, options: { exclusive?: boolean } = {}): void {
  makePrivateDir(path.dirname(file));
  writeFileSync(file, content, { mode: 0o600, flag: options.exclusive ? 'wx' : 'w' });
  // The mode above applies only to a file created now; one being replaced keeps its own unless set here.
  chmodSync(file, 0o600);
}
