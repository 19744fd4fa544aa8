import request from 'supertest';
import { invoiceBody, readyAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

// Inputs taken as the authority takes them (issue 37): no text of the record changed without a word, amounts with a
// plus sign, and the IPSI regime keys judged by the date the rule is applied on.

let now = new Date();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock: () => now });
});
afterAll(() => t.close());
afterEach(() => {
  now = new Date();
});

describe('text that enters the record verbatim', () => {
  it('refuses an invoice number ending in a no-break space with 1130, registering nothing', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const body = invoiceBody(taxpayerId, systemId, { invoice_number: 'F-1\u00a0' });
    for (const path of ['/api/v1/invoices/validate', '/api/v1/invoices']) {
      const res = await request(t.app).post(path).set(account.auth).send(body).expect(422);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ field: 'invoice_number', code: 'surrounding_blank', authority_code: 1130 }),
      ]);
    }
    const list = await request(t.app).get('/api/v1/invoices').set(account.auth).expect(200);
    expect(list.body.data).toEqual([]);
  });

  it('refuses a recipient name starting with a tab (1100) and registers ordinary spaces trimmed, as the authority stores it', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const tabbed = invoiceBody(taxpayerId, systemId, { recipient: { name: '\tCliente SL', nif: 'B85905495' } });
    const res = await request(t.app).post('/api/v1/invoices/validate').set(account.auth).send(tabbed).expect(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ field: 'recipient.name', code: 'surrounding_blank', authority_code: 1100 }),
    ]);
    const spaced = invoiceBody(taxpayerId, systemId, { invoice_number: ' F-2 ', recipient: { name: ' Cliente SL ', nif: 'B85905495' } });
    const id = (await request(t.app).post('/api/v1/invoices').set(account.auth).send(spaced).expect(201)).body.data.id;
    const detail = (await request(t.app).get(`/api/v1/invoices/${id}`).set(account.auth).expect(200)).body.data;
    expect(detail).toMatchObject({ invoice_number: 'F-2', recipient: { name: 'Cliente SL' } });
  });
});

describe('amounts with a plus sign', () => {
  it('registers "+121.00" and writes the record with 121.00, as every amount', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const body = invoiceBody(taxpayerId, systemId, {
      breakdown: [{ regime_type: '01', operation_type: 'S1', base_amount: '+100.00', tax_rate: 21, tax_amount: '+21.00' }],
      total_amount: '+121.00',
      total_tax_amount: '+21.00',
    });
    await request(t.app).post('/api/v1/invoices/validate').set(account.auth).send(body).expect(200);
    const id = (await request(t.app).post('/api/v1/invoices').set(account.auth).send(body).expect(201)).body.data.id;
    const detail = (await request(t.app).get(`/api/v1/invoices/${id}`).set(account.auth).expect(200)).body.data;
    expect(detail).toMatchObject({
      total_amount: '121.00',
      total_tax_amount: '21.00',
      breakdown: [expect.objectContaining({ base_amount: '100.00' })],
    });
    const xml = (await request(t.app).get(detail.records[0].xml_url).set(account.auth).expect(200)).text;
    expect(xml).toMatch(/<sum1:ImporteTotal>121.00<\/sum1:ImporteTotal>/);
    // No element starts with a sign (the generation time's offset is the only "+" a record carries).
    expect(xml).not.toMatch(/>\+/);
  });

  it('has no plus sign in a JSON number: +121.00 written bare is not JSON (400), 121.00 is the same amount', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const text = JSON.stringify(invoiceBody(taxpayerId, systemId, { total_amount: 121 })).replace(
      '"total_amount":121',
      '"total_amount":+121.00',
    );
    await request(t.app).post('/api/v1/invoices/validate').set(account.auth).set('content-type', 'application/json').send(text).expect(400);
    const bare = JSON.stringify(invoiceBody(taxpayerId, systemId)).replace(/"total_amount":[^,}]+/, '"total_amount":121.00');
    await request(t.app).post('/api/v1/invoices/validate').set(account.auth).set('content-type', 'application/json').send(bare).expect(200);
  });
});

describe('an IPSI line with a regime key outside the IPSI list', () => {
  const ipsi = { tax_type: '02', regime_type: '17', operation_type: 'S1', base_amount: 100, tax_rate: 4, tax_amount: 4 };

  it('is accepted with the warning 2009 on 31-12-2026 and refused with 1246 on 01-01-2027 (the service clock)', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const body = invoiceBody(taxpayerId, systemId, {
      invoice_date: '2026-11-20',
      breakdown: [ipsi],
      total_amount: 104,
      total_tax_amount: 4,
    });
    now = new Date('2026-12-31T23:30:00+01:00');
    const before = await request(t.app).post('/api/v1/invoices/validate').set(account.auth).send(body).expect(200);
    expect(before.body.data.warnings).toEqual([
      expect.objectContaining({ field: 'breakdown[0].regime_type', code: 'ipsi_regime_outside_list', authority_code: 2009 }),
    ]);
    now = new Date('2027-01-01T00:30:00+01:00');
    const after = await request(t.app).post('/api/v1/invoices/validate').set(account.auth).send(body).expect(422);
    expect(after.body.errors).toEqual([expect.objectContaining({ field: 'breakdown[0].regime_type', authority_code: 1246 })]);
  });
});
