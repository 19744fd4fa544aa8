import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { setUpTestFixtures } from './test-fixtures';

/**
 * End-to-end tests start the compiled service processes (`dist/`, what operators run), so the whole build comes
 * first: `tsc -b` rebuilds only what changed since the last build, and does nothing when nothing did.
 */
export default async function e2eSetup(): Promise<void> {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: join(__dirname, '../..'), stdio: 'inherit' });
  await setUpTestFixtures();
}
