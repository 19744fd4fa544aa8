import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { invoiceBody, readyAccount, registerAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const register = (body: Record<string, unknown>) => request(t.app).post('/api/v1/auth/register').send(body);

describe('POST /api/v1/auth/register', () => {
  it('creates an account on the default plan and shows a prefixed key once', async () => {
    const res = await register({ name: 'Ana', email: 'Ana@Example.TEST', password: 'correct horse battery' }).expect(201);
    expect(res.body.message).toEqual(expect.any(String));
    expect(res.body.data).toEqual({
      api_key: expect.stringMatching(/^vfk_[A-Za-z0-9_-]{43}$/),
      api_key_hint: res.body.data.api_key.slice(0, 8) + '…',
      name: 'Ana',
      email: 'ana@example.test',
      plan: 'free',
      monthly_quota: 100,
    });
    // Only the digest is stored; the password only as a bcrypt hash.
    const { rows } = await t.db.db.execute(sql`SELECT api_key_digest, password_hash FROM accounts WHERE email = 'ana@example.test'`);
    expect(rows[0].api_key_digest).toBe(createHash('sha256').update(res.body.data.api_key).digest('hex'));
    expect(String(rows[0].password_hash)).toMatch(/^\$2[aby]\$04\$/);
    expect(JSON.stringify(rows)).not.toContain(res.body.data.api_key);
    expect(JSON.stringify(rows)).not.toContain('correct horse battery');
    // The key is not shown again anywhere.
    const account = await request(t.app).get('/api/v1/account').set('Authorization', `Bearer ${res.body.data.api_key}`).expect(200);
    expect(JSON.stringify(account.body)).not.toContain(res.body.data.api_key);
    expect(account.body.data).toMatchObject({
      name: 'Ana',
      email: 'ana@example.test',
      plan: 'free',
      monthly_quota: 100,
      api_key_hint: res.body.data.api_key_hint,
    });
  });

  it('uses whichever plan the database marks as default', async () => {
    const makeDefault = async (id: string) => {
      await t.db.db.execute(sql`UPDATE plans SET is_default = false`);
      await t.db.db.execute(sql`UPDATE plans SET is_default = true WHERE id = ${id}`);
    };
    await makeDefault('pro');
    try {
      const res = await register({ name: 'Pro', email: 'pro@example.test', password: 'a long enough password' }).expect(201);
      expect(res.body.data).toMatchObject({ plan: 'pro', monthly_quota: 5000 });
    } finally {
      await makeDefault('free');
    }
  });

  it('refuses a second account with the same email, whatever its case', async () => {
    await register({ name: 'One', email: 'dup@example.test', password: 'a long enough password' }).expect(201);
    const res = await register({ name: 'Two', email: 'DUP@example.test', password: 'another long password' }).expect(409);
    expect(res.body).toMatchObject({ status: 409, code: 'email_taken' });
  });

  it('explains every invalid field at once', async () => {
    const res = await register({ name: '', email: 'not-an-email', password: 'short' }).expect(422);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`).sort()).toEqual([
      'email:invalid_format',
      'name:too_short',
      'password:too_short',
    ]);
    expect(res.body.errors.find((e: { field: string }) => e.field === 'password').message).toMatch(/12 characters/);
  });

  it('refuses passwords bcrypt would silently truncate', async () => {
    const res = await register({ name: 'Long', email: 'long@example.test', password: 'ñ'.repeat(40) }).expect(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'password', code: 'too_long' })]);
  });
});

describe('authentication', () => {
  it('answers 401 with a Bearer challenge when the key is missing, malformed or unknown', async () => {
    for (const header of [undefined, 'Basic abc', 'Bearer vfk_nope', `Bearer vfk_${'A'.repeat(43)}`]) {
      const req = request(t.app).get('/api/v1/taxpayers');
      const res = await (header ? req.set('Authorization', header) : req).expect(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.body).toMatchObject({ status: 401, code: 'unauthorized', type: 'urn:vf:problem:unauthorized' });
    }
  });

  it('refuses a registration with a wrong or regenerated key before anything is written, whatever its body', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const regenerated = await request(t.app).post('/api/v1/auth/regenerate-key').set(account.auth).expect(200);
    const current = { Authorization: `Bearer ${regenerated.body.data.api_key}` };
    const wrong = { Authorization: `Bearer vfk_${'B'.repeat(43)}` };
    const bodies = [
      invoiceBody(taxpayerId, systemId),
      invoiceBody(taxpayerId, systemId, { invoice_number: '' }),
      invoiceBody('not-a-uuid', systemId),
      invoiceBody(systemId, systemId),
    ];
    for (const auth of [account.auth, wrong]) {
      for (const body of bodies) {
        const res = await request(t.app).post('/api/v1/invoices').set(auth).send(body).expect(401);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.headers['www-authenticate']).toBe('Bearer realm="api", error="invalid_token"');
        expect(res.body).toMatchObject({ status: 401, code: 'unauthorized', type: 'urn:vf:problem:unauthorized' });
      }
    }
    const list = await request(t.app).get('/api/v1/invoices').set(current).expect(200);
    expect(list.body.data).toEqual([]);
    // The current key registers, and still gets the body's and the ownership's own refusals.
    await request(t.app).post('/api/v1/invoices').set(current).send(bodies[0]).expect(201);
    expect((await request(t.app).post('/api/v1/invoices').set(current).send(bodies[1]).expect(422)).body.code).toBe('validation_failed');
    expect((await request(t.app).post('/api/v1/invoices').set(current).send(bodies[3]).expect(404)).body.code).toBe('taxpayer_not_found');
  });

  it('needs no key for health and registration', async () => {
    await request(t.app).get('/api/v1/health').expect(200);
  });
});

describe('POST /api/v1/auth/regenerate-key', () => {
  it('with the current key: issues a new key and the old one stops working at once', async () => {
    const account = await registerAccount(t.app);
    const res = await request(t.app).post('/api/v1/auth/regenerate-key').set(account.auth).expect(200);
    const newKey: string = res.body.data.api_key;
    expect(newKey).toMatch(/^vfk_/);
    expect(newKey).not.toBe(account.apiKey);
    await request(t.app).get('/api/v1/taxpayers').set(account.auth).expect(401);
    await request(t.app).get('/api/v1/taxpayers').set('Authorization', `Bearer ${newKey}`).expect(200);
  });

  it('with email and password, for a lost key', async () => {
    const account = await registerAccount(t.app);
    const res = await request(t.app)
      .post('/api/v1/auth/regenerate-key')
      .send({ email: account.email.toUpperCase(), password: account.password })
      .expect(200);
    expect(res.body.message).toEqual(expect.any(String));
    await request(t.app).get('/api/v1/account').set(account.auth).expect(401);
    const me = await request(t.app).get('/api/v1/account').set('Authorization', `Bearer ${res.body.data.api_key}`).expect(200);
    expect(me.body.data.email).toBe(account.email);
  });

  it('gives the same 401 for a wrong password and an unknown email, and keeps the key', async () => {
    const account = await registerAccount(t.app);
    const wrongPassword = await request(t.app)
      .post('/api/v1/auth/regenerate-key')
      .send({ email: account.email, password: 'not the password' })
      .expect(401);
    const unknownEmail = await request(t.app)
      .post('/api/v1/auth/regenerate-key')
      .send({ email: 'nobody@example.test', password: 'not the password' })
      .expect(401);
    expect(wrongPassword.body.code).toBe('invalid_credentials');
    expect(unknownEmail.body.code).toBe('invalid_credentials');
    expect(wrongPassword.body.detail).toBe(unknownEmail.body.detail);
    await request(t.app).get('/api/v1/account').set(account.auth).expect(200);
  });

  it('refuses an invalid bearer key instead of falling back to credentials', async () => {
    const account = await registerAccount(t.app);
    const res = await request(t.app)
      .post('/api/v1/auth/regenerate-key')
      .set('Authorization', 'Bearer vfk_wrong')
      .send({ email: account.email, password: account.password })
      .expect(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    await request(t.app).get('/api/v1/account').set(account.auth).expect(200);
  });

  it('without key or credentials: 422 naming the missing fields', async () => {
    const res = await request(t.app).post('/api/v1/auth/regenerate-key').expect(422);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email', 'password']);
  });
});

test('no API key or password ever reaches a log line', async () => {
  const account = await registerAccount(t.app);
  const regenerated = await request(t.app)
    .post('/api/v1/auth/regenerate-key')
    .send({ email: account.email, password: account.password })
    .expect(200);
  await request(t.app)
    .get('/api/v1/account')
    .set('Authorization', `Bearer ${regenerated.body.data.api_key}`)
    .set('Cookie', 'session=secret-cookie')
    .expect(200);
  const logs = t.logs.join('\n');
  expect(t.logs.length).toBeGreaterThan(3);
  for (const secret of [account.apiKey, regenerated.body.data.api_key, account.password, 'secret-cookie'])
    expect(logs).not.toContain(secret);
  // The request line of the authenticated call is there, without the headers that carried the key and the cookie.
  const line = t.logs.map((l) => JSON.parse(l)).find((l) => l.req?.url === '/api/v1/account' && l.res?.statusCode === 200);
  expect(line).toMatchObject({ msg: 'request completed', req: { method: 'GET' } });
  expect(line.req.headers).toBeUndefined();
});
