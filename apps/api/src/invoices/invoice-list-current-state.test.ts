import { sql } from 'drizzle-orm';
import request from 'supertest';
import { invoiceBody, readyAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const line = (base: number) => [
  { tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: base, tax_rate: 21, tax_amount: base * 0.21 },
];
const amounts = (base: number) => ({ breakdown: line(base), total_amount: base * 1.21, total_tax_amount: base * 0.21 });

/**
 * The lists filter and sort on the current record's total, type and recipient as the invoice's first row keeps them
 * (migration 0027); what they answer must stay what joining each invoice to its current record answers.
 */
test('lists by total, type, recipient, number prefix and text answer as the current records say, after corrections and cancellations', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(t.app);
  const register = async (extra: Record<string, unknown>) =>
    (
      await request(t.app)
        .post('/api/v1/invoices')
        .set(account.auth)
        .send(invoiceBody(taxpayerId, systemId, extra))
        .expect(201)
    ).body.data.id as string;
  const first = { invoice_number: 'C-1', ...amounts(100) };
  const c1 = await register(first);
  const c2 = await register({ invoice_number: 'C-2', recipient: { name: 'Otra', nif: 'A58818501' }, ...amounts(200) });
  await register({ invoice_number: '50%_x', ...amounts(300) });
  await register({ invoice_number: '500x', ...amounts(50) });
  await t.db.db.execute(sql`UPDATE invoices SET authority_status = 'accepted' WHERE id IN (${c1}, ${c2})`);
  // C-1 corrected to another recipient and a larger total; C-2 cancelled.
  const correctedBody = invoiceBody(taxpayerId, systemId, { ...first, recipient: { name: 'Otra', nif: 'A58818501' }, ...amounts(1000) });
  await request(t.app).put(`/api/v1/invoices/${c1}`).set(account.auth).send(correctedBody).expect(201);
  await request(t.app).post(`/api/v1/invoices/${c2}/cancel`).set(account.auth).send({ reason: 'Emitida por error' }).expect(201);

  const listed = async (query: string) =>
    ((await request(t.app).get(`/api/v1/invoices?${query}`).set(account.auth).expect(200)).body.data as { id: string }[]).map((i) => i.id);
  // The reference: each invoice joined to its current record, as the lists read before migration 0027.
  const joined = async (where: ReturnType<typeof sql>, order: ReturnType<typeof sql>) =>
    (
      await t.db.db.execute<{ id: string }>(sql`
        SELECT f.id FROM invoices f JOIN invoices c ON c.id = f.current_record_id JOIN accounts a ON a.id = f.account_id
        WHERE f.taxpayer_id = ${taxpayerId} AND ${where} ORDER BY ${order}`)
    ).rows.map((r) => r.id);
  const newest = sql`f.created_at DESC, f.id DESC`;

  for (const nif of ['A58818501', 'B85905495']) {
    const expected = await joined(sql`c.recipient ->> 'nif' = ${nif}`, newest);
    expect(expected.length).toBeGreaterThan(0);
    expect(await listed(`recipient_nif=${nif}`)).toEqual(expected);
  }
  // The corrected invoice is found by its new recipient only.
  expect(await listed('recipient_nif=A58818501')).toContain(c1);
  expect(await listed('recipient_nif=B85905495')).not.toContain(c1);
  expect(await listed('sort=total_amount')).toEqual(await joined(sql`true`, sql`c.total_amount, f.id`));
  expect(await listed('sort=-total_amount')).toEqual(await joined(sql`true`, sql`c.total_amount DESC, f.id DESC`));
  expect((await listed('sort=-total_amount'))[0]).toBe(c1);
  expect(await listed('invoice_type=F1')).toEqual(await joined(sql`c.invoice_type = 'F1'`, newest));
  expect(await listed('kind=normal')).toEqual(await joined(sql`c.invoice_type IN ('F1', 'F2', 'F3')`, newest));
  expect(await listed('kind=corrective')).toEqual([]);
  // A prefix and a text are taken literally: % and _ are no wildcards.
  expect(await listed('number_prefix=50%25')).toEqual(await joined(sql`f.invoice_number = '50%_x'`, newest));
  expect(await listed('number_prefix=50_')).toEqual([]);
  expect(await listed('q=%25_')).toEqual(await joined(sql`f.invoice_number = '50%_x'`, newest));
  expect(await listed('q=0X')).toEqual(await joined(sql`f.invoice_number ILIKE '%0x%'`, newest));
});
