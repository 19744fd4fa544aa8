import { generateKeyPair } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writePrivateFile } from '@vf/config';
import { promisify } from 'node:util';

const generate = promisify(generateKeyPair);

/** Where a test run's pool of RSA keys is, set by the run's global setup. */
export const TEST_KEY_POOL_ENV = 'VF_TEST_KEY_POOL';

/**
 * Writes `size` distinct RSA-2048 private keys (PKCS#8 PEM) to `path`. A 2048-bit key costs a fifth of a second of
 * CPU; the test suite issues hundreds of certificates, so one run generates a pool once and every test process
 * takes its keys from it (certificates stay distinct: subjects and serial numbers are their own).
 */
export async function writeTestKeyPool(path: string, size: number): Promise<void> {
  const keys = await Promise.all(
    Array.from({ length: size }, async () => {
      const { privateKey } = await generate('rsa', { modulusLength: 2048 });
      return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    }),
  );
  writePrivateFile(path, JSON.stringify(keys));
}

let pool: string[] | undefined;
let next = 0;

/**
 * The next key of the run's pool, round robin from a random start, so that the certificates issued one after
 * another in a test never share a key while fewer than the pool's size are compared; undefined outside a test run.
 */
export function nextPooledTestKey(): string | undefined {
  const path = process.env[TEST_KEY_POOL_ENV];
  if (!path) return undefined;
  if (!pool) {
    pool = JSON.parse(readFileSync(path, 'utf8')) as string[];
    next = Math.floor(Math.random() * pool.length);
  }
  const key = pool[next % pool.length];
  next += 1;
  return key;
}
