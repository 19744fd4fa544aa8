import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Keys the run's certificates draw from: more than any one test compares, few enough to generate in a second or two.
const KEY_POOL_SIZE = 12;

/**
 * The run's shared fixtures, made once however many projects ask: the migrated template database every test file
 * clones, and the pool of RSA keys every test process takes its certificates' keys from.
 *
 * Their code is loaded from the compiled build, which the caller makes first: outside jest's own module resolution,
 * Node resolves the workspaces through their exports to `dist/`.
 */
export async function setUpTestFixtures(): Promise<void> {
  const [{ TEST_KEY_POOL_ENV, writeTestKeyPool }, { globalSetup: setUpTestDatabases }] = await Promise.all([
    import('@vf/certificates/testing'),
    import('@vf/db/testing'),
  ]);
  if (process.env[TEST_KEY_POOL_ENV]) return;
  const pool = join(mkdtempSync(join(tmpdir(), 'vf-test-keys-')), 'keys.json');
  await Promise.all([setUpTestDatabases(), writeTestKeyPool(pool, KEY_POOL_SIZE)]);
  process.env[TEST_KEY_POOL_ENV] = pool;
}
