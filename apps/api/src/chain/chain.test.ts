import request from 'supertest';
import { createTaxpayer, invoiceBody, readyAccount, registerAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/v1/chain/{nif}', () => {
  it('reports an empty chain, then its head after registrations', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app, { nif: '89890001K' });
    const empty = await request(t.app).get('/api/v1/chain/89890001K').set(account.auth).expect(200);
    expect(empty.body).toEqual({
      data: {
        nif: '89890001K',
        environment: 'sandbox',
        current_environment: 'sandbox',
        last_hash: null,
        total_records: 0,
        last_record_at: null,
      },
    });

    await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201);
    const last = (await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201)).body
      .data;
    const res = await request(t.app).get('/api/v1/chain/89890001k').set(account.auth).expect(200);
    expect(res.body.data).toEqual({
      nif: '89890001K',
      environment: 'sandbox',
      current_environment: 'sandbox',
      last_hash: last.hash,
      total_records: 2,
      last_record_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/),
    });
    // The same instant as the record's FechaHoraHusoGenRegistro, in UTC.
    expect(Date.parse(res.body.data.last_record_at)).toBe(Date.parse(last.generated_at));
  });

  it('is a 404 for a NIF the account does not have, even if another account has it', async () => {
    const owner = await registerAccount(t.app);
    await createTaxpayer(t.app, owner, { nif: '89890002E', name: 'Owner taxpayer' });
    const stranger = await registerAccount(t.app);
    const res = await request(t.app).get('/api/v1/chain/89890002E').set(stranger.auth).expect(404);
    expect(res.body.code).toBe('chain_not_found');
    await request(t.app).get('/api/v1/chain/not-a-nif').set(stranger.auth).expect(404);
    await request(t.app).get('/api/v1/chain/89890002E').expect(401);
  });
});

describe('one chain per NIF and environment, service-wide', () => {
  it('gives a NIF to one account per environment: a second account gets 409 taxpayer_claimed, on create and on switching', async () => {
    const first = await registerAccount(t.app);
    const firstTaxpayer = await createTaxpayer(t.app, first, { nif: '89890003T' });
    const second = await registerAccount(t.app);

    const claimed = await request(t.app).post('/api/v1/taxpayers').set(second.auth).send({ nif: '89890003T', name: 'Intruso' }).expect(409);
    expect(claimed.body.code).toBe('taxpayer_claimed');
    expect(claimed.body.detail).toMatch(/contact support/);

    // The other environment is free: the second account may hold the NIF in production...
    const secondTaxpayer = await createTaxpayer(t.app, second, { nif: '89890003T', is_production: true });
    // ...so neither may move into the other's environment, and nothing changes when refused.
    expect(
      (await request(t.app).put(`/api/v1/taxpayers/${firstTaxpayer}`).set(first.auth).send({ is_production: true }).expect(409)).body.code,
    ).toBe('taxpayer_claimed');
    expect(
      (await request(t.app).put(`/api/v1/taxpayers/${secondTaxpayer}`).set(second.auth).send({ is_production: false }).expect(409)).body
        .code,
    ).toBe('taxpayer_claimed');
    expect((await request(t.app).get(`/api/v1/taxpayers/${firstTaxpayer}`).set(first.auth).expect(200)).body.data.is_production).toBe(
      false,
    );

    // Claims are taken under the unique (nif, environment) key, so racing creations cannot both win.
    const racers = await Promise.all([registerAccount(t.app), registerAccount(t.app), registerAccount(t.app)]);
    const results = await Promise.all(
      racers.map((a) => request(t.app).post('/api/v1/taxpayers').set(a.auth).send({ nif: '89890004R', name: 'Carrera' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('switching sandbox to production starts a new chain (PrimerRegistro) and keeps the sandbox chain readable', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app, { nif: '89890005W' });
    const register = async () =>
      (await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201)).body.data;
    await register();
    const lastSandbox = await register();

    await request(t.app).put(`/api/v1/taxpayers/${taxpayerId}`).set(account.auth).send({ is_production: true }).expect(200);
    const firstProduction = await register();
    expect(firstProduction).toMatchObject({ chain_position: 1, previous_hash: null });
    const detail = (await request(t.app).get(`/api/v1/invoices/${firstProduction.id}`).set(account.auth).expect(200)).body.data;
    expect(detail).toMatchObject({
      environment: 'production',
      previous_invoice_id: null,
      qr_url: expect.stringContaining('agenciatributaria.gob.es'),
    });

    const current = (await request(t.app).get('/api/v1/chain/89890005W').set(account.auth).expect(200)).body.data;
    expect(current).toMatchObject({
      environment: 'production',
      current_environment: 'production',
      total_records: 1,
      last_hash: firstProduction.hash,
    });
    const sandbox = (await request(t.app).get('/api/v1/chain/89890005W?environment=sandbox').set(account.auth).expect(200)).body.data;
    expect(sandbox).toMatchObject({
      environment: 'sandbox',
      current_environment: 'production',
      total_records: 2,
      last_hash: lastSandbox.hash,
    });
    expect((await request(t.app).get('/api/v1/chain/89890005W?environment=test').set(account.auth).expect(422)).body.code).toBe(
      'validation_failed',
    );

    // Back to sandbox: the sandbox chain resumes where it stopped.
    await request(t.app).put(`/api/v1/taxpayers/${taxpayerId}`).set(account.auth).send({ is_production: false }).expect(200);
    expect(await register()).toMatchObject({ chain_position: 3, previous_hash: lastSandbox.hash });
    // The same number may exist once per chain: the authority's sandbox and production registries are separate.
    const taxpayer = (await request(t.app).get(`/api/v1/taxpayers/${taxpayerId}`).set(account.auth).expect(200)).body.data;
    expect(taxpayer.chain).toMatchObject({ total_records: 3 });
  });
});
