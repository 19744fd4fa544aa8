/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';
import { baseProject } from './jest.config';

// `npm run test:image`: builds the image and runs its containers. Apart from `npm test`, with its own time bound: a
// first run on a fresh machine makes a Debian base with debootstrap and installs every dependency in the image.
const config: Config = {
  ...baseProject,
  roots: ['<rootDir>/e2e'],
  testMatch: ['**/*.image-test.ts'],
  globalSetup: '<rootDir>/scripts/jest/e2e-setup.ts',
  globalTeardown: '<rootDir>/scripts/jest/global-teardown.ts',
  maxWorkers: 1,
  testTimeout: 30 * 60_000,
};

export default config;
