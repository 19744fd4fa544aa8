import { loadSimConfig } from './sim-config';

test('the log level defaults to info, is read from LOG_LEVEL and must be a pino level', () => {
  expect(loadSimConfig({}).logLevel).toBe('info');
  expect(loadSimConfig({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
  expect(() => loadSimConfig({ LOG_LEVEL: 'loud' })).toThrow(/invalid simulator environment: "LOG_LEVEL" must be one of/);
});

test('the rule set defaults to the current table and may be the previous one', () => {
  expect(loadSimConfig({}).ruleSet).toBe('current');
  expect(loadSimConfig({ SIM_RULE_SET: 'previous' }).ruleSet).toBe('previous');
  expect(() => loadSimConfig({ SIM_RULE_SET: '2024' })).toThrow(/"SIM_RULE_SET" must be one of \[current, previous\]/);
});
