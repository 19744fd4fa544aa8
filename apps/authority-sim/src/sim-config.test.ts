import { loadSimConfig } from './sim-config';

test('the log level defaults to info, is read from LOG_LEVEL and must be a pino level', () => {
  expect(loadSimConfig({}).logLevel).toBe('info');
  expect(loadSimConfig({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
  expect(() => loadSimConfig({ LOG_LEVEL: 'loud' })).toThrow(/invalid simulator environment: "LOG_LEVEL" must be one of/);
});
