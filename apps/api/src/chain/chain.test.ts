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
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const empty = await request(t.app).get('/api/v1/chain/89890001K').set(account.auth).expect(200);
    expect(empty.body).toEqual({ data: { nif: '89890001K', last_hash: null, total_records: 0, last_record_at: null } });

    await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201);
    const last = (await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201)).body.data;
    const res = await request(t.app).get('/api/v1/chain/89890001k').set(account.auth).expect(200);
    expect(res.body.data).toEqual({ nif: '89890001K', last_hash: last.hash, total_records: 2, last_record_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/) });
    // The same instant as the record's FechaHoraHusoGenRegistro, in UTC.
    expect(Date.parse(res.body.data.last_record_at)).toBe(Date.parse(last.generated_at));
  });

  it("is a 404 for a NIF the account does not have, even if another account has it", async () => {
    const owner = await registerAccount(t.app);
    await createTaxpayer(t.app, owner, { nif: '89890002E', name: 'Owner taxpayer' });
    const stranger = await registerAccount(t.app);
    const res = await request(t.app).get('/api/v1/chain/89890002E').set(stranger.auth).expect(404);
    expect(res.body.code).toBe('chain_not_found');
    await request(t.app).get('/api/v1/chain/not-a-nif').set(stranger.auth).expect(404);
    await request(t.app).get('/api/v1/chain/89890002E').expect(401);
  });
});
