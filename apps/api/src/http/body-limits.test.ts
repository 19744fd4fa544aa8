import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { invoiceBody, readyAccount, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { JSON_SHAPE_LIMITS, scanJson } from './json-shape';

// Bodies built to make the server work harder than their size: refused on their bytes, before parsing or validation,
// with a stable code; meanwhile other requests are answered as usual.
let t: TestApp;
let account: TestAccount;
let taxpayerId: string;
let systemId: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ account, taxpayerId, systemId } = await readyAccount(t.app));
});
afterAll(() => t.close());

const keys = (n: number) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1])));
const post = (path: string, body: string, auth: Record<string, string> = {}) =>
  request(t.app).post(`/api/v1${path}`).set(auth).set('Content-Type', 'application/json').send(body);

test('50,000 unknown keys, 100,000 array items and 1,000 levels of nesting are refused with 413 while a registration alongside is answered', async () => {
  const manyItems = JSON.stringify({ ...invoiceBody(taxpayerId, systemId), breakdown: Array.from({ length: 100_000 }, () => 1) });
  const deep = `${'['.repeat(1_000)}${']'.repeat(1_000)}`;
  const email = `${randomUUID()}@example.test`;
  const [register, regenerate, invoice, validate, batch, registered, signedUp] = await Promise.all([
    post('/auth/register', keys(50_000)),
    post('/auth/regenerate-key', keys(50_000)),
    post('/invoices', keys(50_000), account.auth),
    post('/invoices/validate', manyItems, account.auth),
    post('/invoices/batch', deep, account.auth),
    request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)),
    request(t.app).post('/api/v1/auth/register').send({ name: 'Alongside', email, password: 'a long enough password' }),
  ]);
  const answer = (res: request.Response) => ({ status: res.status, code: res.body.code });
  expect([register, regenerate, invoice].map(answer)).toEqual(Array(3).fill({ status: 413, code: 'too_many_keys' }));
  expect(answer(validate)).toEqual({ status: 413, code: 'too_many_items' });
  expect(answer(batch)).toEqual({ status: 413, code: 'nesting_too_deep' });
  expect(register.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(registered.status).toBe(201);
  expect(signedUp.status).toBe(201);
  // Only the two ordinary requests wrote anything.
  const { rows } = await t.db.db.execute<{ accounts: number; invoices: number }>(
    sql`SELECT (SELECT count(*)::int FROM accounts) AS accounts, (SELECT count(*)::int FROM invoices) AS invoices`,
  );
  expect(rows[0]).toEqual({ accounts: 2, invoices: 1 });
});

test('a body within the limits reaches validation and hears about each of its fields', async () => {
  const res = await post('/auth/register', keys(JSON_SHAPE_LIMITS.maxKeysPerObject)).expect(422);
  expect(res.body.code).toBe('validation_failed');
  expect(res.body.errors.filter((e: { code: string }) => e.code === 'unknown_field')).toHaveLength(JSON_SHAPE_LIMITS.maxKeysPerObject);
});

test('the limits count structure only: brackets and commas inside strings, escaped quotes included, are text', () => {
  const inText = JSON.stringify({ description: `\\"${'[{,'.repeat(5_000)}"` });
  expect(scanJson(Buffer.from(inText)).problem).toBeUndefined();
  const limits = { maxDepth: 2, maxKeysPerObject: 2, maxItemsPerArray: 3 };
  expect(scanJson(Buffer.from('{"a":[1,2,3],"b":{"c":1,"d":"}]"}}'), limits).problem).toBeUndefined();
  expect(scanJson(Buffer.from('{"a":[[1]]}'), limits).problem?.code).toBe('nesting_too_deep');
  expect(scanJson(Buffer.from('{"a":1,"b":2,"c":3}'), limits).problem?.code).toBe('too_many_keys');
  expect(scanJson(Buffer.from('[1,2,3,4]'), limits).problem?.code).toBe('too_many_items');
  // A wide array inside an object, then more keys: each level counts its own members.
  expect(scanJson(Buffer.from('{"a":[1,2,3],"b":1}'), limits).problem).toBeUndefined();
});
