import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_KEY_POOL_ENV, writeTestKeyPool } from '@vf/certificates/testing';
import { globalSetup as setUpTestDatabases } from '@vf/db/testing';

// Keys the run's certificates draw from: more than any one test compares, few enough to generate in a second or two.
const KEY_POOL_SIZE = 12;

/** The test run's shared fixtures: the migrated template database and the pool of RSA keys, built side by side. */
export default async function globalSetup(): Promise<void> {
  const pool = join(mkdtempSync(join(tmpdir(), 'vf-test-keys-')), 'keys.json');
  await Promise.all([setUpTestDatabases(), writeTestKeyPool(pool, KEY_POOL_SIZE)]);
  process.env[TEST_KEY_POOL_ENV] = pool;
}
