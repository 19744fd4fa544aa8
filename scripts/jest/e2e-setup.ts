import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { setUpTestFixtures } from './test-fixtures';

/**
 * End-to-end tests start the compiled service processes (`dist/`, what operators run), so the whole build comes
 * first: `npm run build`'s own command, run without npm's start-up. `tsc -b` rebuilds only what changed since the last
 * build, and does nothing when nothing did.
 */
export default async function e2eSetup(): Promise<void> {
  const tsc = join('node_modules', 'typescript-native', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: join(__dirname, '../..'), stdio: 'inherit' });
  await setUpTestFixtures();
}
