import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { setUpTestFixtures } from './test-fixtures';

/**
 * Integration tests run in-process on the sources, so only the fixtures' own code is compiled: the database's
 * migrations and test helpers, and the certificates' key pool. `tsc -b` rebuilds only what changed since the last
 * build, and does nothing when nothing did.
 */
export default async function integrationSetup(): Promise<void> {
  const tsc = join('node_modules', 'typescript-native', 'bin', 'tsc');
  const fixtures = ['packages/db/tsconfig.build.json', 'packages/certificates/tsconfig.build.json'];
  execFileSync(process.execPath, [tsc, '-b', ...fixtures], { cwd: join(__dirname, '../..'), stdio: 'inherit' });
  await setUpTestFixtures();
}
