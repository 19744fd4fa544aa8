import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { createLogger } from '@vf/logger';
import { errorHandler } from '../errors/error-handler';
import { requestLogger } from './request-logger';

/** An app whose routes fail as a request does when PostgreSQL is away, and as a bug does; every log line kept. */
function appLoggingTo(lines: Record<string, unknown>[]) {
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const app = express();
  app.use(requestLogger(createLogger({ service: 'api', destination })));
  app.get('/database-away', () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  });
  app.get('/bug', () => {
    throw new TypeError('undefined is not a function');
  });
  app.use(errorHandler);
  return app;
}

const ERROR = 50;
const WARN = 40;

test('an expected 503 (a dependency away) is logged as warnings, one of them with its cause, never at error level', async () => {
  const lines: Record<string, unknown>[] = [];
  const res = await request(appLoggingTo(lines)).get('/database-away');
  expect({ status: res.status, retryAfter: res.headers['retry-after'] }).toEqual({ status: 503, retryAfter: '5' });
  await new Promise((resolve) => setImmediate(resolve));
  expect(lines.filter((line) => Number(line.level) >= ERROR)).toEqual([]);
  expect(lines).toEqual([
    expect.objectContaining({ level: WARN, msg: 'dependency unavailable', err: expect.objectContaining({ code: 'ECONNREFUSED' }) }),
    expect.objectContaining({ level: WARN, msg: 'request answered service unavailable', res: { statusCode: 503 } }),
  ]);
});

test('a fault of ours stays an error', async () => {
  const lines: Record<string, unknown>[] = [];
  await request(appLoggingTo(lines)).get('/bug').expect(500);
  await new Promise((resolve) => setImmediate(resolve));
  expect(lines.map((line) => [line.level, line.msg])).toEqual([
    [ERROR, 'unhandled error'],
    [ERROR, 'request errored'],
  ]);
});
