import { Writable } from 'node:stream';
import { createLogger } from './create-logger';
import { logRepeatsSparingly } from './log-repeats-sparingly';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: createLogger({ service: 'test', destination }) };
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });

afterEach(() => jest.restoreAllMocks());

test('an error repeated within the window is counted, not written; the next line after the window says how many were left out', () => {
  const { lines, logger } = capture();
  const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
  const log = logRepeatsSparingly(logger, 30_000);
  for (let i = 0; i < 88; i++) log('warn', { err: refused(), source: 'connection' }, 'redis connection error');
  log('warn', { err: new Error('NOAUTH Authentication required') }, 'redis connection error');
  now.mockReturnValue(1_030_000);
  log('warn', { err: refused(), source: 'webhook queue' }, 'redis connection error');
  expect(lines.map((line) => [(line.err as { message: string }).message, line.repeated])).toEqual([
    ['connect ECONNREFUSED 127.0.0.1:6379', undefined],
    ['NOAUTH Authentication required', undefined],
    ['connect ECONNREFUSED 127.0.0.1:6379', 87],
  ]);
  expect(lines[0]).toMatchObject({ level: 40, msg: 'redis connection error', source: 'connection' });
});
