import { sql } from 'drizzle-orm';
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
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
}

const taxpayerCount = async () => Number((await t.db.db.execute(sql`SELECT count(*)::int AS n FROM taxpayers`)).rows[0].n);

describe('input the edge refuses before any feature sees it', () => {
  it('400 malformed_url for percent-encoding that does not decode, in any path', async () => {
    for (const path of ['/api/v1/taxpayers/%zz', '/api/v1/chain/%E0%A4%A', '/assets/%', '/app/taxpayers/%C3%28', '/api/v1/invoices/%']) {
      const res = await request(t.app).get(path).set(account.auth);
      expectProblem(res, 400, 'malformed_url');
    }
  });

  it('400 for a body labelled gzip that is not, 415 for an encoding nobody supports', async () => {
    const labelled = await request(t.app)
      .post('/api/v1/taxpayers')
      .set(account.auth)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send('{"nif":"89890001K","name":"Plain"}');
    expectProblem(labelled, 400, 'malformed_body');
    const unknown = await request(t.app)
      .post('/api/v1/taxpayers')
      .set(account.auth)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'zstd')
      .send('{"nif":"89890001K","name":"Plain"}');
    expectProblem(unknown, 415, 'unsupported_content_encoding');
    expect(await taxpayerCount()).toBe(0);
  });

  it('422 invalid_characters naming the field for NUL and other controls, in bodies, nested fields, queries and paths', async () => {
    const cases: [string, () => request.Test, string][] = [
      [
        'account name',
        () =>
          request(t.app)
            .post('/api/v1/auth/register')
            .send({ name: 'Ana\u0000', email: 'nul@example.test', password: 'a long enough password' }),
        'name',
      ],
      [
        'taxpayer name',
        () => request(t.app).post('/api/v1/taxpayers').set(account.auth).send({ nif: '89890002E', name: 'X\u0007Y' }),
        'name',
      ],
      [
        'nested field',
        () =>
          request(t.app)
            .post('/api/v1/invoices')
            .set(account.auth)
            .send({ recipient: { name: 'A\u001bB' } }),
        'recipient.name',
      ],
      [
        'batch item',
        () =>
          request(t.app)
            .post('/api/v1/invoices/batch')
            .set(account.auth)
            .send([{ description: 'fine' }, { description: 'A\u0085B' }]),
        '1.description',
      ],
      ['query', () => request(t.app).get('/api/v1/invoices?status=queued%00').set(account.auth), 'status'],
      ['path parameter', () => request(t.app).get('/api/v1/chain/89890001K%00').set(account.auth), 'path'],
    ];
    for (const [what, send, field] of cases) {
      const res = await send();
      expect(`${what}: ${res.status} ${res.body.code}`).toBe(`${what}: 422 invalid_characters`);
      expect(res.body.errors).toEqual([expect.objectContaining({ field, code: 'invalid_characters' })]);
    }
    expect(await taxpayerCount()).toBe(0);
    const accounts = await t.db.db.execute(sql`SELECT count(*)::int AS n FROM accounts WHERE email = 'nul@example.test'`);
    expect(accounts.rows[0].n).toBe(0);
  });

  it('keeps tabs and line breaks, which descriptions and addresses legitimately hold', async () => {
    await request(t.app).post('/api/v1/taxpayers').set(account.auth).send({ nif: '89890003T', name: 'Línea\tuno' }).expect(201);
  });
});
