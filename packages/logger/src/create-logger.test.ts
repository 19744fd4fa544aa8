import { Writable } from 'node:stream';
import { createLogger } from './create-logger';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger({ service: 'test', level: 'debug', destination }) };
}

// The shape drizzle and pg give a failed INSERT: the wrapper's message lists the parameters, pg's detail quotes one.
function failedInsert(): Error {
  const pgError = Object.assign(new Error('duplicate key value violates unique constraint "accounts_email_key"'), {
    code: '23505',
    severity: 'ERROR',
    constraint: 'accounts_email_key',
    table: 'accounts',
    detail: 'Key (email)=(victim@example.test) already exists.',
  });
  return Object.assign(new Error('Failed query: insert into accounts values ($1, $2)\nparams: victim@example.test,$2b$12$hashhashhash'), {
    query: 'insert into accounts values ($1, $2)',
    params: ['victim@example.test', '$2b$12$hashhashhash'],
    cause: pgError,
  });
}

test('secrets are blanked wherever they sit in a logged object', () => {
  const { lines, logger } = capture();
  logger.info({
    req: { headers: { authorization: 'Bearer vfk_secret', cookie: 'vf_session=cookie-secret', 'x-api-key': 'header-secret' } },
    body: { password: 'pw-secret', certificate_password: 'cert-pw', nested: { masterKey: 'mk-secret', apiKey: 'ak-secret' } },
    config: { platformCertificate: { path: '/p.p12', password: 'platform-secret' } },
  });
  const out = lines.join('');
  for (const secret of [
    'vfk_secret',
    'cookie-secret',
    'header-secret',
    'pw-secret',
    'cert-pw',
    'mk-secret',
    'ak-secret',
    'platform-secret',
  ])
    expect(out).not.toContain(secret);
  expect(JSON.parse(lines[0])).toMatchObject({ service: 'test', body: { password: '[redacted]' } });
});

test('a database error is logged by code and constraint, never with its parameters or quoted values', () => {
  const { lines, logger } = capture();
  logger.error({ err: new Error('registration failed', { cause: failedInsert() }) }, 'unhandled error');
  const out = lines.join('');
  expect(out).not.toContain('victim@example.test');
  expect(out).not.toContain('hashhashhash');
  expect(JSON.parse(lines[0]).err).toMatchObject({
    message: 'registration failed',
    cause: { type: 'DatabaseError', code: '23505', constraint: 'accounts_email_key', table: 'accounts' },
  });
});

test('ordinary errors keep their message, code and causes', () => {
  const { lines, logger } = capture();
  logger.warn({ err: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }, 'redis down');
  expect(JSON.parse(lines[0]).err).toMatchObject({ type: 'Error', message: 'connect ECONNREFUSED', code: 'ECONNREFUSED' });
});
