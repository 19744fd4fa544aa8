import request from 'supertest';
import { registerAccount, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
let account: TestAccount;
beforeAll(async () => {
  t = await createTestApp();
  account = await registerAccount(t.app);
});
afterAll(() => t.close());

function expectProblem(res: request.Response, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toEqual(
    expect.objectContaining({
      type: `urn:vf:problem:${code}`,
      title: expect.any(String),
      status,
      detail: expect.any(String),
      code,
      request_id: expect.any(String),
    }),
  );
  expect(res.body.request_id).toBe(res.headers['x-request-id']);
}

describe('problem+json for every client error', () => {
  it('400 malformed_json for a body that is not JSON', async () => {
    const res = await request(t.app).post('/api/v1/taxpayers').set(account.auth).set('Content-Type', 'application/json').send('{"nif": ');
    expectProblem(res, 400, 'malformed_json');
  });

  it('413 payload_too_large above 1 MB', async () => {
    const res = await request(t.app)
      .post('/api/v1/taxpayers')
      .set(account.auth)
      .send({ nif: '89890001K', name: 'x'.repeat(1024 * 1024 + 10) });
    expectProblem(res, 413, 'payload_too_large');
  });

  it('415 for a body that is not JSON at all', async () => {
    const res = await request(t.app).post('/api/v1/taxpayers').set(account.auth).set('Content-Type', 'text/plain').send('nif=89890001K');
    expectProblem(res, 415, 'unsupported_media_type');
  });

  it('404 for unknown routes, 405 with Allow for a wrong method', async () => {
    expectProblem(await request(t.app).get('/api/v1/nothing-here').set(account.auth), 404, 'not_found');
    expectProblem(await request(t.app).get('/elsewhere'), 404, 'not_found');
    const res = await request(t.app).patch('/api/v1/taxpayers').set(account.auth).send({});
    expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, POST');
    expectProblem(await request(t.app).get('/api/v1/auth/register'), 405, 'method_not_allowed');
  });

  it('404 (not 500) for ids that are not UUIDs', async () => {
    expectProblem(await request(t.app).get('/api/v1/taxpayers/not-a-uuid').set(account.auth), 404, 'taxpayer_not_found');
    expectProblem(await request(t.app).delete('/api/v1/systems/1%27%20OR%201=1').set(account.auth), 404, 'system_not_found');
    expectProblem(await request(t.app).get('/api/v1/invoices/123').set(account.auth), 404, 'invoice_not_found');
  });

  it('422 with field errors for nasty bodies, never a 500', async () => {
    const nasty: unknown[] = [
      [],
      [{ nif: '89890001K' }],
      { nif: null, name: null },
      { nif: 89890001, name: 1e308, is_production: 'yes' },
      { nif: '89890001K', name: 'T', is_production: 1 },
      JSON.parse('{"__proto__": {"admin": true}, "nif": "89890001K"}'),
      JSON.parse('{"constructor": {"prototype": {"x": 1}}, "nif": "89890001K"}'),
      { nif: { $gt: '' }, name: ['a'] },
      { nif: '89890001K'.repeat(1000), name: '\u0000' },
    ];
    for (const body of nasty) {
      for (const path of [
        '/api/v1/taxpayers',
        '/api/v1/systems',
        '/api/v1/invoices',
        '/api/v1/invoices/validate',
        '/api/v1/invoices/classify',
      ]) {
        const res = await request(t.app)
          .post(path)
          .set(account.auth)
          .send(body as object);
        // The path in the subject names the culprit when this fails.
        expect(`${path} -> ${res.status}`).toMatch(/ -> (400|422)$/);
        expect(res.body.code).toBeDefined();
      }
    }
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('422 for query strings of the wrong shape', async () => {
    const res = await request(t.app).get('/api/v1/invoices?limit=1e9&status=bogus&taxpayer_id=x&cursor=zzz').set(account.auth);
    expectProblem(res, 422, 'validation_failed');
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['limit', 'status', 'taxpayer_id']);
    const repeated = await request(t.app).get('/api/v1/invoices?status=queued&status=sent').set(account.auth);
    expectProblem(repeated, 422, 'validation_failed');
  });
});

describe('request ids', () => {
  it('honours a sane X-Request-Id, replaces an unsafe one, and stamps it on the log lines', async () => {
    const given = await request(t.app).get('/api/v1/taxpayers').set(account.auth).set('X-Request-Id', 'client-abc.123');
    expect(given.headers['x-request-id']).toBe('client-abc.123');
    const unsafe = await request(t.app).get('/api/v1/taxpayers').set(account.auth).set('X-Request-Id', 'bad id with spaces "and quotes"');
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const lines = t.logs.map((l) => JSON.parse(l)).filter((l) => l.reqId === 'client-abc.123' || l.req?.id === 'client-abc.123');
    expect(lines.length).toBeGreaterThan(0);
  });
});
