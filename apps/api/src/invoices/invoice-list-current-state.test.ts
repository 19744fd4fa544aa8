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

/**
 * A status filter reads the current record's status as the invoice's first row keeps it (migration 0030): set by the
 * append that makes a correction current, then by a trigger when that record's status changes. It must answer what
 * joining each invoice to its current record answers, and count the same.
 */
test('lists and totals by status answer as the current records say, through corrections and their status changes', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(t.app);
  const register = async (n: string) =>
    (
      await request(t.app)
        .post('/api/v1/invoices')
        .set(account.auth)
        .send(invoiceBody(taxpayerId, systemId, { invoice_number: n }))
        .expect(201)
    ).body.data.id as string;
  const [a, b, c] = [await register('S-1'), await register('S-2'), await register('S-3')];
  const setStatus = (ids: string[], status: string) =>
    t.db.db.execute(sql`UPDATE invoices SET authority_status = ${status} WHERE id IN (${sql.join(ids, sql`, `)})`);
  await setStatus([a, b, c], 'rejected');
  const correct = async (id: string, n: string) => {
    await request(t.app)
      .put(`/api/v1/invoices/${id}`)
      .set(account.auth)
      .send(invoiceBody(taxpayerId, systemId, { invoice_number: n }))
      .expect(201);
  };
  await correct(a, 'S-1');
  await correct(b, 'S-2');
  const records = async (id: string) =>
    (await t.db.db.execute<{ id: string }>(sql`SELECT id FROM invoices WHERE invoice_id = ${id} ORDER BY chain_seq`)).rows.map((r) => r.id);
  const [, bFix] = await records(b);
  // b's correction accepted (the trigger keeps b's first row in step); a's stays queued; c's first record rejected.
  await setStatus([bFix], 'sent');
  await setStatus([bFix], 'accepted');
  // A correction no longer current changes nothing: a's first correction accepted, a corrected again, then that
  // first correction's status changed.
  const [, aFirstFix] = await records(a);
  await setStatus([aFirstFix], 'accepted');
  await correct(a, 'S-1');
  await setStatus([aFirstFix], 'rejected');

  const listed = async (query: string) => {
    const body = (await request(t.app).get(`/api/v1/invoices?${query}`).set(account.auth).expect(200)).body as {
      data: { id: string; authority_status: string }[];
      total: number;
    };
    return { ids: body.data.map((i) => i.id), statuses: body.data.map((i) => i.authority_status), total: body.total };
  };
  const joined = async (statuses: string[]) =>
    (
      await t.db.db.execute<{ id: string }>(sql`
        SELECT f.id FROM invoices f JOIN invoices c ON c.id = f.current_record_id
        WHERE f.taxpayer_id = ${taxpayerId} AND c.authority_status IN (${sql.join(statuses, sql`, `)})
        ORDER BY f.created_at DESC, f.id DESC`)
    ).rows.map((r) => r.id);
  expect(await joined(['rejected'])).toEqual([c]);
  expect(await joined(['accepted'])).toEqual([b]);
  expect(await joined(['queued'])).toEqual([a]);
  for (const statuses of [['rejected'], ['accepted'], ['queued'], ['queued', 'rejected'], ['sent']]) {
    const expected = await joined(statuses);
    const got = await listed(`status=${statuses.join(',')}`);
    expect({ statuses, ids: got.ids, total: got.total }).toEqual({ statuses, ids: expected, total: expected.length });
    for (const s of got.statuses) expect(statuses).toContain(s);
  }
});
