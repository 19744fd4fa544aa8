import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { invoiceBody, readyAccount, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { expectExactChain } from './testing/expect-exact-chain';

// Batches of several hundred items of one taxpayer: refusals found across the whole batch, one transaction, and a write
// that fails part of the way through leaves nothing of the batch (what any way of splitting the write must keep).

let t: TestApp;
let server: Server;
beforeAll(async () => {
  t = await createTestApp();
  server = t.app.listen(0);
  // A stand-in for what can go wrong in the middle of a write: PostgreSQL refuses one given invoice number, either with
  // an error of its own (the connection, the disk) or as a duplicate a concurrent writer would have caused.
  await t.db.db.execute(sql`
    CREATE FUNCTION refuse_marked_invoices() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.invoice_number = 'FAIL-0400' THEN RAISE EXCEPTION 'disk full'; END IF;
      IF NEW.invoice_number = 'TAKEN-0300' THEN RAISE unique_violation USING MESSAGE = 'taken meanwhile'; END IF;
      RETURN NEW;
    END $$`);
  await t.db.db.execute(sql`
    CREATE TRIGGER refuse_marked_invoices BEFORE INSERT ON invoices FOR EACH ROW EXECUTE FUNCTION refuse_marked_invoices()`);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const batch = (account: TestAccount, items: unknown[]) => request(server).post('/api/v1/invoices/batch').set(account.auth).send(items);
const numbered = (prefix: string, n: number) => `${prefix}-${String(n).padStart(4, '0')}`;

async function businessAccount() {
  const ready = await readyAccount(server);
  await t.db.db.execute(sql`UPDATE accounts SET plan_id = 'business' WHERE email = ${ready.account.email}`);
  return ready;
}

async function storedNumbers(taxpayerId: string): Promise<string[]> {
  return (await expectExactChain(t.db.db, taxpayerId)).map((r) => r.invoice_number);
}

test('a batch of 600: refusals found across the whole batch, the rest in array order, one transaction', async () => {
  const { account, taxpayerId, systemId } = await businessAccount();
  await request(server)
    .post('/api/v1/invoices')
    .set(account.auth)
    .send(invoiceBody(taxpayerId, systemId, { invoice_number: 'C-OLD' }))
    .expect(201);
  const items = Array.from({ length: 600 }, (_, i) => invoiceBody(taxpayerId, systemId, { invoice_number: numbered('C', i) }));
  items[10] = invoiceBody(taxpayerId, systemId, { invoice_number: numbered('C', 10), total_amount: 'abc' });
  // A repeat, hundreds of items later, of an earlier item; an invoice the chain had before; an unknown system.
  items[300] = invoiceBody(taxpayerId, systemId, { invoice_number: numbered('C', 5) });
  items[420] = invoiceBody(taxpayerId, systemId, { invoice_number: 'C-OLD' });
  items[599] = invoiceBody(taxpayerId, '00000000-0000-4000-8000-000000000000', { invoice_number: numbered('C', 599) });

  const res = await batch(account, items).expect(207);
  expect(res.body).toMatchObject({ registered: 596, failed: 4 });
  const refused = res.body.results
    .filter((r: { status: number }) => r.status !== 201)
    .map((r: { index: number; problem: { code: string } }) => [r.index, r.problem.code]);
  expect(refused).toEqual([
    [10, 'validation_failed'],
    [300, 'duplicate_invoice'],
    [420, 'duplicate_invoice'],
    [599, 'system_not_found'],
  ]);
  const going = items.filter((_, i) => ![10, 300, 420, 599].includes(i)).map((i) => i.invoice_number);
  expect(await storedNumbers(taxpayerId)).toEqual(['C-OLD', ...going]);
  const positions = res.body.results
    .filter((r: { status: number }) => r.status === 201)
    .map((r: { data: { chain_position: number } }) => r.data.chain_position);
  expect(positions).toEqual(going.map((_, i) => i + 2));
  const tx = await t.db.db.execute<{ n: number }>(
    sql`SELECT count(DISTINCT created_at)::int AS n FROM invoices WHERE taxpayer_id = ${taxpayerId} AND invoice_number LIKE 'C-0%'`,
  );
  expect(tx.rows[0].n).toBe(1);
  const me = await request(server).get('/api/v1/account').set(account.auth).expect(200);
  expect(me.body.data.usage.used).toBe(597);
});

test('a write that fails on its 401st record leaves nothing of the batch, and the chain takes the next batch', async () => {
  const { account, taxpayerId, systemId } = await businessAccount();
  const items = Array.from({ length: 500 }, (_, i) => invoiceBody(taxpayerId, systemId, { invoice_number: numbered('FAIL', i) }));
  await batch(account, items).expect(500);
  expect(await storedNumbers(taxpayerId)).toEqual([]);
  const me = await request(server).get('/api/v1/account').set(account.auth).expect(200);
  expect(me.body.data.usage.used).toBe(0);

  const next = Array.from({ length: 300 }, (_, i) => invoiceBody(taxpayerId, systemId, { invoice_number: numbered('NEXT', i) }));
  await batch(account, next).expect(201);
  expect(await storedNumbers(taxpayerId)).toEqual(next.map((i) => i.invoice_number));
});

test('an item the write cannot store (taken meanwhile) is refused alone; the others are registered in array order', async () => {
  const { account, taxpayerId, systemId } = await businessAccount();
  const items = Array.from({ length: 320 }, (_, i) => invoiceBody(taxpayerId, systemId, { invoice_number: numbered('TAKEN', i) }));
  const res = await batch(account, items).expect(207);
  expect(res.body).toMatchObject({ registered: 319, failed: 1 });
  expect(res.body.results[300]).toMatchObject({ status: 409, problem: { code: 'duplicate_invoice' } });
  expect(await storedNumbers(taxpayerId)).toEqual(items.filter((_, i) => i !== 300).map((i) => i.invoice_number));
});

test('a batch of 400 past the monthly quota: the items past it refused, the others registered in order', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  await t.db.db.execute(
    sql`INSERT INTO plans (id, name, monthly_quota) VALUES ('batch-260', 'Two hundred sixty', 260) ON CONFLICT DO NOTHING`,
  );
  await t.db.db.execute(sql`UPDATE accounts SET plan_id = 'batch-260' WHERE email = ${account.email}`);
  const items = Array.from({ length: 400 }, (_, i) => invoiceBody(taxpayerId, systemId, { invoice_number: numbered('Q', i) }));
  const res = await batch(account, items).expect(207);
  expect(res.body).toMatchObject({ registered: 260, failed: 140 });
  expect(res.body.results.slice(260).every((r: { status: number }) => r.status === 429)).toBe(true);
  expect(await storedNumbers(taxpayerId)).toEqual(items.slice(0, 260).map((i) => i.invoice_number));
});

test('with an Idempotency-Key, a retried batch of 300 gets the first answer and registers nothing twice', async () => {
  const { account, taxpayerId, systemId } = await businessAccount();
  const items = Array.from({ length: 300 }, (_, i) => invoiceBody(taxpayerId, systemId, { invoice_number: numbered('I', i) }));
  items[7] = invoiceBody(taxpayerId, systemId, { invoice_number: numbered('I', 7), total_amount: 'x' });
  const key = randomUUID();
  const first = await batch(account, items).set('Idempotency-Key', key).expect(207);
  const again = await batch(account, items).set('Idempotency-Key', key).expect(207);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.body).toEqual(first.body);
  expect(await storedNumbers(taxpayerId)).toEqual(items.filter((_, i) => i !== 7).map((i) => i.invoice_number));
});
