/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

// One config for the whole monorepo: every test runs against the real PostgreSQL and Redis.
const config: Config = {
  testEnvironment: 'node',
  // Tests load the workspaces' TypeScript sources (their exports' "@vf/source" condition); Node, and so every service
  // process a test starts, loads the compiled dist/ (the "default" condition).
  testEnvironmentOptions: { customExportConditions: ['@vf/source', 'node', 'node-addons'] },
  roots: ['<rootDir>/apps', '<rootDir>/packages', '<rootDir>/e2e', '<rootDir>/bench', '<rootDir>/scripts'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }] },
  globalSetup: '<rootDir>/scripts/jest/global-setup.ts',
  globalTeardown: '<rootDir>/scripts/jest/global-teardown.ts',
  maxWorkers: 4,
  // Keeps V8's code cache of each module across the test files a worker runs (see the file).
  runtime: '<rootDir>/scripts/jest/code-cache-runtime.cjs',
  // Above waitUntil's 120 s, so that a wait that runs out reports what it waited for.
  testTimeout: 180_000,
  // Jest's 500 ms for a worker to exit after the last file is too short when two suites share the cores; the
  // workers then got killed with a "failed to exit gracefully" warning while holding no handle. A leak still shows.
  workerGracefulExitTimeout: 5_000,
};

export default config;
