import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { TEST_KEY_POOL_ENV } from '@vf/certificates/testing';
import { globalTeardown as tearDownTestDatabases } from '@vf/db/testing';

export default async function globalTeardown(): Promise<void> {
  const pool = process.env[TEST_KEY_POOL_ENV];
  if (pool) rmSync(dirname(pool), { recursive: true, force: true });
  await tearDownTestDatabases();
}
