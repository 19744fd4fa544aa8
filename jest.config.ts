/** @jest-config-loader esbuild-register */
import path from 'node:path';
import type { Config } from 'jest';
import { TEST_ROOTS, testProjects } from './scripts/jest/test-projects';

type ProjectConfig = Exclude<NonNullable<Config['projects']>[number], string>;

/** What every project shares: how test files are compiled and loaded. */
export const baseProject: ProjectConfig = {
  rootDir: __dirname,
  testEnvironment: 'node',
  // Tests load the workspaces' TypeScript sources (their exports' "@vf/source" condition); Node, and so every service
  // process a test starts, loads the compiled dist/ (the "default" condition).
  testEnvironmentOptions: { customExportConditions: ['@vf/source', 'node', 'node-addons'] },
  roots: TEST_ROOTS.map((dir) => `<rootDir>/${dir}`),
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }] },
  // Keeps V8's code cache of each module across the test files a worker runs (see the file).
  runtime: '<rootDir>/scripts/jest/code-cache-runtime.cjs',
};

// Which project a test file is in follows from what its test code uses (scripts/jest/test-projects.ts).
const files = testProjects(__dirname);
// Exact paths, as globs: escape what a glob would read as a pattern.
const only = (paths: string[]) =>
  paths.map((file) =>
    file
      .split(path.sep)
      .join('/')
      .replace(/[()[\]{}!*?+@|]/g, '\\$&'),
  );

const projects: ProjectConfig[] = [
  // No PostgreSQL, Redis, key pool or build: the setup points the first two at addresses that do not exist.
  { ...baseProject, displayName: 'unit', testMatch: only(files.unit), setupFiles: ['<rootDir>/scripts/jest/unit-setup.ts'] },
  {
    ...baseProject,
    displayName: 'integration',
    testMatch: only(files.integration),
    globalSetup: '<rootDir>/scripts/jest/integration-setup.ts',
    globalTeardown: '<rootDir>/scripts/jest/global-teardown.ts',
  },
  {
    ...baseProject,
    displayName: 'e2e',
    testMatch: only(files.e2e),
    globalSetup: '<rootDir>/scripts/jest/e2e-setup.ts',
    globalTeardown: '<rootDir>/scripts/jest/global-teardown.ts',
  },
];

// `npm run test:unit` (and test:integration, test:e2e) runs one project and still takes paths: jest's own
// --selectProjects would read a path given after it as one more project's name.
const selected = process.env.VF_TEST_PROJECT;
if (selected && !projects.some((p) => p.displayName === selected)) throw new Error(`VF_TEST_PROJECT: no jest project ${selected}`);

const config: Config = {
  projects: projects.filter((p) => !selected || p.displayName === selected),
  maxWorkers: 4,
  // Slow files first also where jest has no durations of an earlier run (see the file).
  testSequencer: '<rootDir>/scripts/jest/test-sequencer.cjs',
  // Above waitUntil's 120 s, so that a wait that runs out reports what it waited for.
  testTimeout: 180_000,
  // Jest's 500 ms for a worker to exit after the last file is too short when two suites share the cores; the
  // workers then got killed with a "failed to exit gracefully" warning while holding no handle. A leak still shows.
  workerGracefulExitTimeout: 5_000,
};

export default config;
