import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import request from 'supertest';
import { idempotencyStore } from '@vf/db';
import { composeServices } from '../compose';
import { invoiceBody, readyAccount, registerAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { requestFingerprint } from './idempotency-service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function invoicesNumbered(number: string): Promise<string[]> {
  const { rows } = await t.db.db.execute<{ id: string }>(sql`SELECT id FROM invoices WHERE invoice_number = ${number}`);
  return rows.map((r) => r.id);
}

async function accountIdOf(apiKey: string): Promise<string> {
  const res = await request(t.app)
    .get('/api/v1/account')
    .set({ Authorization: `Bearer ${apiKey}` })
    .expect(200);
  return res.body.data.id;
}

/** The services of a second API process on the same database and queues (one that dies before it answers). */
function servicesOfAnotherProcess() {
  return composeServices({
    db: t.db.db,
    redis: t.redis,
    queues: t.queues,
    logger: pino({ level: 'silent' }),
    config: {
      masterKey: t.masterKey,
      certificateDir: t.certificateDir,
      admin: undefined,
      queuePrefix: t.queues.submission.opts.prefix!,
      passwordHashCost: 4,
    },
  });
}

describe('Idempotency-Key', () => {
  it('replays the first answer (status, body, Location) with Idempotent-Replayed, and registers once', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const body = invoiceBody(taxpayerId, systemId);
    const key = randomUUID();
    const first = await request(t.app).post('/api/v1/invoices').set(account.auth).set('Idempotency-Key', key).send(body).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await request(t.app).post('/api/v1/invoices').set(account.auth).set('Idempotency-Key', key).send(body).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.body).toEqual(first.body);
    expect(await invoicesNumbered(String(body.invoice_number))).toEqual([first.body.data.id]);
    // Without a key the same body is a new request: the duplicate check answers.
    await request(t.app).post('/api/v1/invoices').set(account.auth).send(body).expect(409);
  });

  it('replays a refusal too: a 422 stays the answer of that key', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const body = invoiceBody(taxpayerId, systemId, { invoice_type: 'F4' });
    const key = randomUUID();
    const first = await request(t.app).post('/api/v1/invoices').set(account.auth).set('Idempotency-Key', key).send(body).expect(422);
    const again = await request(t.app).post('/api/v1/invoices').set(account.auth).set('Idempotency-Key', key).send(body).expect(422);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(again.body).toEqual(first.body);
  });

  it('runs exactly one of many concurrent requests with one key', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const body = invoiceBody(taxpayerId, systemId);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => request(t.app).post('/api/v1/invoices').set(account.auth).set('Idempotency-Key', key).send(body)),
    );
    const ran = answers.filter((a) => a.status === 201 && a.headers['idempotent-replayed'] === undefined);
    expect(ran).toHaveLength(1);
    for (const a of answers) {
      if (a.status === 201) expect(a.body.data.id).toBe(ran[0].body.data.id);
      else {
        expect(a.status).toBe(409);
        expect(a.body.code).toBe('idempotency_in_progress');
        expect(Number(a.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
    }
    expect(await invoicesNumbered(String(body.invoice_number))).toEqual([ran[0].body.data.id]);
  });

  it('refuses the same key with another body, path or method: 422 idempotency_key_reused, nothing written', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const key = randomUUID();
    await request(t.app)
      .post('/api/v1/invoices')
      .set(account.auth)
      .set('Idempotency-Key', key)
      .send(invoiceBody(taxpayerId, systemId))
      .expect(201);
    const other = invoiceBody(taxpayerId, systemId);
    const reused = await request(t.app).post('/api/v1/invoices').set(account.auth).set('Idempotency-Key', key).send(other).expect(422);
    expect(reused.body.code).toBe('idempotency_key_reused');
    expect(await invoicesNumbered(String(other.invoice_number))).toEqual([]);
    const elsewhere = await request(t.app)
      .post('/api/v1/systems')
      .set(account.auth)
      .set('Idempotency-Key', key)
      .send({ vendor_name: 'Otro SL', vendor_nif: 'B85905495', name: 'Otro', version: '1', installation_number: '1' })
      .expect(422);
    expect(elsewhere.body.code).toBe('idempotency_key_reused');
  });

  it("keeps each account's keys apart", async () => {
    const a = await readyAccount(t.app);
    const b = await readyAccount(t.app, { nif: '89890002E' });
    const key = randomUUID();
    const ra = await request(t.app)
      .post('/api/v1/invoices')
      .set(a.account.auth)
      .set('Idempotency-Key', key)
      .send(invoiceBody(a.taxpayerId, a.systemId))
      .expect(201);
    const rb = await request(t.app)
      .post('/api/v1/invoices')
      .set(b.account.auth)
      .set('Idempotency-Key', key)
      .send(invoiceBody(b.taxpayerId, b.systemId))
      .expect(201);
    expect(rb.headers['idempotent-replayed']).toBeUndefined();
    expect(rb.body.data.id).not.toBe(ra.body.data.id);
  });

  it.each([['x'.repeat(256)], ['clé-ñ'], ['tab\there']])('refuses the malformed key %j with 422 idempotency_key_invalid', async (key) => {
    const account = await registerAccount(t.app);
    const res = await request(t.app)
      .post('/api/v1/systems')
      .set(account.auth)
      .set('Idempotency-Key', key)
      .send({ vendor_name: 'V SL', vendor_nif: 'B85905495', name: 'S', version: '1', installation_number: '1' })
      .expect(422);
    expect(res.body.code).toBe('idempotency_key_invalid');
    const list = await request(t.app).get('/api/v1/systems').set(account.auth).expect(200);
    expect(list.body.data).toEqual([]);
  });

  it('applies to every changing route: a replayed POST /systems and PUT /systems/{id}', async () => {
    const account = await registerAccount(t.app);
    const key = randomUUID();
    const body = { vendor_name: 'V SL', vendor_nif: 'B85905495', name: 'S', version: '1', installation_number: '1' };
    const first = await request(t.app).post('/api/v1/systems').set(account.auth).set('Idempotency-Key', key).send(body).expect(201);
    const again = await request(t.app).post('/api/v1/systems').set(account.auth).set('Idempotency-Key', key).send(body).expect(201);
    expect(again.body.data.id).toBe(first.body.data.id);
    const list = await request(t.app).get('/api/v1/systems').set(account.auth).expect(200);
    expect(list.body.data).toHaveLength(1);
    const putKey = randomUUID();
    const put = () =>
      request(t.app).put(`/api/v1/systems/${first.body.data.id}`).set(account.auth).set('Idempotency-Key', putKey).send({ version: '2' });
    await put().expect(200);
    expect((await put().expect(200)).headers['idempotent-replayed']).toBe('true');
  });

  it('keeps the answer of a route that writes nothing: a dry run is replayed', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const body = invoiceBody(taxpayerId, systemId);
    const key = randomUUID();
    const validate = () => request(t.app).post('/api/v1/invoices/validate').set(account.auth).set('Idempotency-Key', key).send(body);
    const first = await validate().expect(200);
    expect(first.body.data.valid).toBe(true);
    const again = await validate().expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('gives a client that lost the answer (connection dropped) its registration, never a duplicate', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const body = invoiceBody(taxpayerId, systemId);
    const key = randomUUID();
    const server = http.createServer(t.app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const payload = JSON.stringify(body);
      // The client sends the request and drops the connection before any answer.
      await new Promise<void>((resolve) => {
        const req = http.request({
          host: '127.0.0.1',
          port: (server.address() as AddressInfo).port,
          method: 'POST',
          path: '/api/v1/invoices',
          headers: {
            ...account.auth,
            'Idempotency-Key': key,
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(payload),
          },
        });
        req.on('error', () => resolve());
        req.end(payload, () => {
          req.destroy();
          resolve();
        });
      });
      // It retries until the first run is over; it never sees 409 duplicate_invoice.
      let retry: request.Response;
      for (;;) {
        retry = await request(t.app).post('/api/v1/invoices').set(account.auth).set('Idempotency-Key', key).send(body);
        if (retry.status !== 409 || retry.body.code !== 'idempotency_in_progress') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(retry.status).toBe(201);
      expect(await invoicesNumbered(String(body.invoice_number))).toEqual([retry.body.data.id]);
    } finally {
      server.close();
    }
  });

  it('answers a registration committed by a process that died before answering: the answer committed with it', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const accountId = await accountIdOf(account.apiKey);
    const body = invoiceBody(taxpayerId, systemId);
    const key = randomUUID();
    // What the dead process did: claimed the key and committed the registration, then nothing more.
    const services = servicesOfAnotherProcess();
    const { result, handle } = await services.idempotency.claim(accountId, key, requestFingerprint('POST', '/api/v1/invoices', body));
    expect(result.kind).toBe('claimed');
    const accountRow = await services.auth.authenticate(account.apiKey);
    const registered = await services.registration.register(accountRow!, body, pino({ level: 'silent' }), (r) =>
      handle.seal({
        status: 201,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ data: { id: r.id } }),
      }),
    );
    const retry = await request(t.app).post('/api/v1/invoices').set(account.auth).set('Idempotency-Key', key).send(body).expect(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.data.id).toBe(registered.id);
  });

  it('answers a cancellation committed by a process that died before answering, never 409 already_cancelled', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app, { nif: '89890003T' });
    const accountId = await accountIdOf(account.apiKey);
    const registered = await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201);
    const invoiceId = registered.body.data.id;
    // The authority has answered: a cancellation may be appended.
    await t.db.db.execute(sql`UPDATE invoices SET authority_status = 'accepted' WHERE id = ${invoiceId}`);
    const body = { reason: 'emitida por error' };
    const key = randomUUID();
    const services = servicesOfAnotherProcess();
    const { handle } = await services.idempotency.claim(
      accountId,
      key,
      requestFingerprint('POST', `/api/v1/invoices/${invoiceId}/cancel`, body),
    );
    const accountRow = await services.auth.authenticate(account.apiKey);
    const record = await services.cancellation.cancel(accountRow!, invoiceId, body, pino({ level: 'silent' }), (r) =>
      handle.seal({
        status: 201,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ data: { id: r.id } }),
      }),
    );
    const retry = await request(t.app)
      .post(`/api/v1/invoices/${invoiceId}/cancel`)
      .set(account.auth)
      .set('Idempotency-Key', key)
      .send(body)
      .expect(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.data.id).toBe(record.id);
    // Without the key, the same request is a second cancellation: refused.
    expect((await request(t.app).post(`/api/v1/invoices/${invoiceId}/cancel`).set(account.auth).send(body).expect(409)).body.code).toBe(
      'already_cancelled',
    );
  });

  it('answers 409 idempotency_in_progress while a claim is live, and lets a retry take over an abandoned one', async () => {
    const account = await registerAccount(t.app);
    const accountId = await accountIdOf(account.apiKey);
    const body = { vendor_name: 'V SL', vendor_nif: 'B85905495', name: 'S', version: '1', installation_number: '1' };
    const key = randomUUID();
    await idempotencyStore.claim(t.db.db, {
      accountId,
      key,
      fingerprint: requestFingerprint('POST', '/api/v1/systems', body),
      owner: randomUUID(),
      lockSeconds: 60,
      ttlSeconds: 86_400,
    });
    const busy = await request(t.app).post('/api/v1/systems').set(account.auth).set('Idempotency-Key', key).send(body).expect(409);
    expect(busy.body.code).toBe('idempotency_in_progress');
    expect(Number(busy.headers['retry-after'])).toBeGreaterThan(1);
    await t.db.db.execute(sql`UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE key = ${key}`);
    await request(t.app).post('/api/v1/systems').set(account.auth).set('Idempotency-Key', key).send(body).expect(201);
  });

  it('forgets keys after 24 h: expired keys are purged and the key is free again', async () => {
    const account = await registerAccount(t.app);
    const key = randomUUID();
    const body = (name: string) => ({ vendor_name: 'V SL', vendor_nif: 'B85905495', name, version: '1', installation_number: '1' });
    await request(t.app).post('/api/v1/systems').set(account.auth).set('Idempotency-Key', key).send(body('A')).expect(201);
    const { rows } = await t.db.db.execute<{ hours: number }>(
      sql`SELECT round(EXTRACT(EPOCH FROM expires_at - created_at) / 3600)::int AS hours FROM idempotency_keys WHERE key = ${key}`,
    );
    expect(rows[0].hours).toBe(24);
    await t.db.db.execute(sql`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = ${key}`);
    await request(t.app).post('/api/v1/systems').set(account.auth).set('Idempotency-Key', key).send(body('B')).expect(201);
    await t.db.db.execute(sql`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = ${key}`);
    expect(await idempotencyStore.purgeExpired(t.db.db)).toBeGreaterThanOrEqual(1);
    const left = await t.db.db.execute(sql`SELECT 1 FROM idempotency_keys WHERE key = ${key}`);
    expect(left.rows).toHaveLength(0);
  });
});
