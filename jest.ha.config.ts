/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';
import { baseProject } from './jest.config';

// `npm run test:ha`: failovers of PostgreSQL (pg_auto_failover) and Redis (Sentinel) with the real engines. Apart
// from `npm test`, whose time on two cores they would double: each builds a formation and waits out a failover.
const config: Config = {
  ...baseProject,
  roots: ['<rootDir>/e2e'],
  testMatch: ['**/*.ha-test.ts'],
  globalSetup: '<rootDir>/scripts/jest/e2e-setup.ts',
  globalTeardown: '<rootDir>/scripts/jest/global-teardown.ts',
  maxWorkers: 1,
  testTimeout: 600_000,
};

export default config;
