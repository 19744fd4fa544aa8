import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Keys the run's certificates draw from: more than any one test compares, few enough to generate in a second or two.
const KEY_POOL_SIZE = 12;

/**
 * The test run's shared fixtures: the compiled build, the migrated template database and the pool of RSA keys.
 *
 * Tests that start service processes start the compiled ones (`dist/`, what operators run), so the build comes
 * first: `tsc -b` rebuilds only what changed since the last build, and does nothing when nothing did. The fixtures'
 * code is loaded after it, from that build: outside jest's own module resolution, Node resolves the workspaces
 * through their exports to `dist/`.
 */
export default async function globalSetup(): Promise<void> {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: join(__dirname, '../..'), stdio: 'inherit' });
  const [{ TEST_KEY_POOL_ENV, writeTestKeyPool }, { globalSetup: setUpTestDatabases }] = await Promise.all([
    import('@vf/certificates/testing'),
    import('@vf/db/testing'),
  ]);
  const pool = join(mkdtempSync(join(tmpdir(), 'vf-test-keys-')), 'keys.json');
  await Promise.all([setUpTestDatabases(), writeTestKeyPool(pool, KEY_POOL_SIZE)]);
  process.env[TEST_KEY_POOL_ENV] = pool;
}
