import { sql } from 'drizzle-orm';
import request from 'supertest';
import { invoiceBody, readyAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function stored(): Promise<{ invoices: number; usage: number }> {
  const { rows } = await t.db.db.execute(
    sql`SELECT (SELECT count(*) FROM invoices)::int AS invoices, (SELECT coalesce(sum(usage_used), 0) FROM chains)::int AS usage`,
  );
  return rows[0] as { invoices: number; usage: number };
}

describe('POST /api/v1/invoices/validate', () => {
  it('answers 200 valid with warnings for a valid invoice, storing and counting nothing', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const before = await stored();
    const res = await request(t.app)
      .post('/api/v1/invoices/validate')
      .set(account.auth)
      .send(invoiceBody(taxpayerId, systemId))
      .expect(200);
    expect(res.body).toEqual({ data: { valid: true, warnings: [] } });
    const eu = invoiceBody(taxpayerId, systemId, {
      recipient: { name: 'Kunde GmbH', country: 'DE', id_type: '02', id: 'DE123456789' },
      breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'N2', base_amount: 100 }],
      total_amount: 100,
      total_tax_amount: 0,
    });
    const withWarnings = await request(t.app).post('/api/v1/invoices/validate').set(account.auth).send(eu).expect(200);
    expect(withWarnings.body.data.valid).toBe(true);
    expect(withWarnings.body.data.warnings.length).toBeGreaterThan(0);
    expect(await stored()).toEqual(before);
  });

  it('answers 422 with the errors, storing nothing', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const before = await stored();
    const res = await request(t.app)
      .post('/api/v1/invoices/validate')
      .set(account.auth)
      .send(invoiceBody(taxpayerId, systemId, { invoice_date: '2024-02-30', total_amount: 'abc' }))
      .expect(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['invoice_date', 'total_amount']));
    expect(await stored()).toEqual(before);
  });

  it("checks that the taxpayer and system are the caller's", async () => {
    const mine = await readyAccount(t.app);
    const theirs = await readyAccount(t.app);
    const res = await request(t.app)
      .post('/api/v1/invoices/validate')
      .set(mine.account.auth)
      .send(invoiceBody(theirs.taxpayerId, mine.systemId))
      .expect(404);
    expect(res.body.code).toBe('taxpayer_not_found');
  });
});

describe('POST /api/v1/invoices/classify', () => {
  it('classifies the contract cases', async () => {
    const { account } = await readyAccount(t.app);
    const classify = (body: Record<string, unknown>) => request(t.app).post('/api/v1/invoices/classify').set(account.auth).send(body);
    expect((await classify({ recipient_country: 'ES', issuer_territory: 'peninsula' }).expect(200)).body.data).toMatchObject({
      operation_type: 'S1',
      regime_type: '01',
      tax_type: '01',
      tax_rate: 21,
      operation_class: expect.any(String),
      notes: expect.any(String),
    });
    expect(
      (await classify({ recipient_country: 'FR', recipient_vat: 'FR12345678901', issuer_territory: 'peninsula' }).expect(200)).body.data,
    ).toMatchObject({
      operation_type: 'E1',
      regime_type: '02',
      tax_rate: 0,
    });
    expect((await classify({ recipient_country: 'US', issuer_territory: 'peninsula' }).expect(200)).body.data).toMatchObject({
      operation_type: 'E2',
      regime_type: '02',
    });
  });

  it('answers a sale to an EU business E1/02 by default, E5/01 for goods and N2/01 for services (supply_type)', async () => {
    const { account } = await readyAccount(t.app);
    const classify = async (supply: Record<string, unknown>) =>
      (
        await request(t.app)
          .post('/api/v1/invoices/classify')
          .set(account.auth)
          .send({ recipient_country: 'FR', recipient_vat: 'FR12345678901', ...supply })
          .expect(200)
      ).body.data;
    const codes = (d: Record<string, unknown>) => [d.operation_type, d.regime_type, d.breakdown_line];
    const line = (operation_type: string, regime_type: string) => ({ tax_type: '01', regime_type, operation_type, base_amount: null });
    expect(codes(await classify({}))).toEqual(['E1', '02', line('E1', '02')]);
    expect(codes(await classify({ supply_type: null }))).toEqual(['E1', '02', line('E1', '02')]);
    const goods = await classify({ supply_type: 'goods' });
    expect(codes(goods)).toEqual(['E5', '01', line('E5', '01')]);
    expect(goods.notes).toMatch(/art\. 25 of Ley 37\/1992/);
    const services = await classify({ supply_type: 'services' });
    expect(codes(services)).toEqual(['N2', '01', line('N2', '01')]);
    expect(services.notes).toMatch(/place-of-supply rules/);
    const refused = await request(t.app)
      .post('/api/v1/invoices/classify')
      .set(account.auth)
      .send({ recipient_country: 'FR', supply_type: 'both' })
      .expect(422);
    expect(refused.body.errors).toEqual([expect.objectContaining({ field: 'supply_type', code: 'invalid_code' })]);
  });

  // Every case classify answers, with an invoice around its line that a client would register for that sale.
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['domestic', { recipient_country: 'ES' }, {}],
    [
      'EU business',
      { recipient_country: 'FR', recipient_vat: 'FR12345678901' },
      { recipient: { name: 'Client SARL', country: 'FR', id_type: '02', id: 'FR12345678901' } },
    ],
    [
      'EU business, goods',
      { recipient_country: 'FR', recipient_vat: 'FR12345678901', supply_type: 'goods' },
      { recipient: { name: 'Client SARL', country: 'FR', id_type: '02', id: 'FR12345678901' } },
    ],
    [
      'EU business, services',
      { recipient_country: 'FR', recipient_vat: 'FR12345678901', supply_type: 'services' },
      { recipient: { name: 'Client SARL', country: 'FR', id_type: '02', id: 'FR12345678901' } },
    ],
    ['EU consumer (OSS)', { recipient_country: 'FR' }, { invoice_type: 'F2', recipient: undefined }],
    ['export', { recipient_country: 'US' }, { recipient: { name: 'Client Inc', country: 'US', id_type: '04', id: 'X1234567' } }],
    ['Canary Islands', { issuer_territory: 'canarias' }, {}],
    ['Ceuta', { issuer_territory: 'ceuta' }, {}],
    ['Melilla', { issuer_territory: 'melilla' }, {}],
  ];

  it.each(cases)('%s: breakdown_line is a line /invoices/validate accepts as it is', async (_name, classifyBody, invoice) => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const data = (
      await request(t.app)
        .post('/api/v1/invoices/classify')
        .set(account.auth)
        .send({ ...classifyBody, base_amount: '80.00' })
        .expect(200)
    ).body.data;
    expect(data).toEqual(
      expect.objectContaining({ operation_type: expect.any(String), regime_type: expect.any(String), tax_rate: expect.any(Number) }),
    );
    const line = data.breakdown_line;
    const tax = line.tax_amount ?? '0.00';
    const body = invoiceBody(taxpayerId, systemId, {
      breakdown: [line],
      total_tax_amount: tax,
      total_amount: (8000 + Math.round(Number(tax) * 100)) / 100,
      ...invoice,
    });
    await request(t.app).post('/api/v1/invoices/validate').set(account.auth).send(body).expect(200);
  });

  it('answers 422 for an unusable request, and never counts against the quota', async () => {
    const { account } = await readyAccount(t.app);
    const before = await stored();
    const res = await request(t.app)
      .post('/api/v1/invoices/classify')
      .set(account.auth)
      .send({ recipient_country: 'XX', issuer_territory: 'mars' })
      .expect(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.length).toBeGreaterThan(0);
    expect(await stored()).toEqual(before);
  });
});
