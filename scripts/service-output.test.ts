import { outputFormat, serviceLineFormatter } from './service-output';

const started = JSON.stringify({
  level: 30,
  time: Date.UTC(2026, 0, 2, 3, 4, 5),
  service: 'worker',
  workerId: 'w-1',
  msg: 'worker started',
});

test('pretty at a terminal, JSON anywhere else, unless LOG_FORMAT says which', () => {
  expect(outputFormat({}, { isTTY: true })).toBe('pretty');
  expect(outputFormat({}, { isTTY: false })).toBe('json');
  expect(outputFormat({}, {})).toBe('json');
  expect(outputFormat({ LOG_FORMAT: 'json' }, { isTTY: true })).toBe('json');
  expect(outputFormat({ LOG_FORMAT: 'pretty' }, {})).toBe('pretty');
  expect(() => outputFormat({ LOG_FORMAT: 'fancy' }, {})).toThrow(/pretty or json/);
});

test('as JSON, a service line is printed unchanged and a line that is not JSON becomes a JSON object naming its service', () => {
  const format = serviceLineFormatter('json');
  expect(format('worker', started)).toBe(started + '\n');
  const wrapped = format('api', 'Error: connect ECONNREFUSED 127.0.0.1:6379');
  expect(wrapped.endsWith('\n')).toBe(true);
  expect(JSON.parse(wrapped)).toMatchObject({ service: 'api', msg: 'Error: connect ECONNREFUSED 127.0.0.1:6379' });
});

test('pretty, a person reads the level, the service, the message and its fields, not JSON', () => {
  const shown = serviceLineFormatter('pretty', false)('worker', started);
  const [first, ...rest] = shown.trimEnd().split('\n');
  expect(first).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: worker: worker started$/);
  expect(rest.map((line) => line.trim())).toEqual(['workerId: "w-1"']);
  expect(shown).not.toContain('{');
});
