import { sql } from 'drizzle-orm';
import request from 'supertest';
import { createTestCa, issueCertificate, toPkcs12 } from '@vf/certificates/testing';
import { webhookDispatchStore, type OutboxChange } from '@vf/db';
import { createSystem, createTaxpayer, invoiceBody, registerAccount, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

// A record's first status (queued, or kept in NO VERI*FACTU) is implied by the record at its creation time, never kept
// as an event row (decision 0065). What showed it must show it as before: the invoice's history, and the webhooks,
// whose outbox the append now feeds itself and whose previous status falls back on the record's first.

const DAY = 86_400_000;
const PASSWORD = 'p12-Secret-Pass';
const ca = createTestCa();

let t: TestApp;
let account: TestAccount;
let system: string;
beforeAll(async () => {
  t = await createTestApp();
  account = await registerAccount(t.app);
  system = await createSystem(t.app, account, { only_supports_verifactu: false, supports_multiple_taxpayers: true });
  await t.db.db.execute(sql`
    INSERT INTO webhook_endpoints (account_id, url, events, secret)
    SELECT id, 'https://hooks.example.com/in', '["invoice.registered", "invoice.status_changed"]'::jsonb, '\\x00'::bytea
    FROM accounts WHERE email = ${account.email}`);
});
afterAll(() => t.close());

const register = async (taxpayer: string, extra: Record<string, unknown> = {}) =>
  (
    await request(t.app)
      .post('/api/v1/invoices')
      .set(account.auth)
      .send(invoiceBody(taxpayer, system, extra))
      .expect(201)
  ).body.data.id as string;
/** A time as the API writes it: to the millisecond, truncated as the driver reads it. */
const timeOf = async (query: ReturnType<typeof sql>) =>
  new Date(Number((await t.db.db.execute<{ ms: string }>(query)).rows[0].ms)).toISOString();
const createdAt = (id: string) => timeOf(sql`SELECT floor(extract(epoch FROM created_at) * 1000) AS ms FROM invoices WHERE id = ${id}`);
/** The changes the outbox holds now, as the relay reads them; the outbox is emptied. */
async function relayed(): Promise<OutboxChange[]> {
  let seen: OutboxChange[] = [];
  await webhookDispatchStore.relay(t.db.db, (changes) => ((seen = changes), []));
  return seen;
}
const brief = (c: OutboxChange) => ({ recordId: c.recordId, status: c.status, previousStatus: c.previousStatus, at: c.at.toISOString() });

test('the history shows each record queued at its creation, in order with its later events, with no event row kept for it', async () => {
  const taxpayer = await createTaxpayer(t.app, account);
  const id = await register(taxpayer, { invoice_number: 'H-1' });
  await t.db.db.execute(sql`UPDATE invoices SET authority_status = 'rejected' WHERE id = ${id}`);
  await t.db.db.execute(sql`INSERT INTO invoice_status_events (invoice_id, status, code) VALUES (${id}, 'rejected', 1100)`);
  await request(t.app)
    .put(`/api/v1/invoices/${id}`)
    .set(account.auth)
    .send(invoiceBody(taxpayer, system, { invoice_number: 'H-1', description: 'Corregida' }))
    .expect(201);
  const correctionId = (
    await t.db.db.execute<{ id: string }>(sql`SELECT id FROM invoices WHERE invoice_id = ${id} AND record_type = 'correction'`)
  ).rows[0].id;

  const detail = (await request(t.app).get(`/api/v1/invoices/${id}`).set(account.auth).expect(200)).body.data;
  const rejectedAt = await timeOf(
    sql`SELECT floor(extract(epoch FROM at) * 1000) AS ms FROM invoice_status_events WHERE invoice_id = ${id} AND status = 'rejected'`,
  );
  expect(detail.status_history).toEqual([
    { status: 'queued', at: await createdAt(id), code: null, message: null, record_id: id },
    { status: 'rejected', at: rejectedAt, code: 1100, message: null, record_id: id },
    { status: 'queued', at: await createdAt(correctionId), code: null, message: null, record_id: correctionId },
  ]);
  const stored = await t.db.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM invoice_status_events WHERE invoice_id IN (${id}, ${correctionId}) AND status = 'queued'`,
  );
  expect(stored.rows[0].n).toBe(0);
});

test('the webhooks announce a record at its creation and give its first status as the previous one of its next change', async () => {
  await relayed();
  const taxpayer = await createTaxpayer(t.app, account);
  const [a, b] = [await register(taxpayer), await register(taxpayer)];
  expect((await relayed()).map(brief)).toEqual([
    { recordId: a, status: 'queued', previousStatus: null, at: await createdAt(a) },
    { recordId: b, status: 'queued', previousStatus: null, at: await createdAt(b) },
  ]);
  // A change the worker writes later: its previous status is the record's first, which no row keeps.
  await t.db.db.execute(sql`UPDATE invoices SET authority_status = 'sent' WHERE id = ${a}`);
  await t.db.db.execute(sql`INSERT INTO invoice_status_events (invoice_id, status) VALUES (${a}, 'sent')`);
  const [sent] = await relayed();
  expect({ recordId: sent.recordId, status: sent.status, previousStatus: sent.previousStatus }).toEqual({
    recordId: a,
    status: 'sent',
    previousStatus: 'queued',
  });
});

test('a record kept in NO VERI*FACTU is announced kept, as its history says', async () => {
  await relayed();
  const holder = issueCertificate(ca, { commonName: 'CONTRIBUYENTE', nif: '89890001K', notAfter: new Date(Date.now() + 800 * DAY) });
  const kept = await createTaxpayer(t.app, account, {
    operating_mode: 'no_verifactu',
    certificate_p12_base64: toPkcs12(holder, PASSWORD, ca).toString('base64'),
    certificate_password: PASSWORD,
  });
  const id = await register(kept);
  expect((await relayed()).map(brief)).toEqual([{ recordId: id, status: 'kept', previousStatus: null, at: await createdAt(id) }]);
  const detail = (await request(t.app).get(`/api/v1/invoices/${id}`).set(account.auth).expect(200)).body.data;
  expect(detail.status_history).toEqual([{ status: 'kept', at: await createdAt(id), code: null, message: null, record_id: id }]);
});
