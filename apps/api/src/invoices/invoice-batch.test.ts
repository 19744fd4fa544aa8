import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { waitUntil } from '@vf/core/testing';
import { chainJobId } from '@vf/queue';
import { createTaxpayer, invoiceBody, readyAccount, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { expectExactChain } from './testing/expect-exact-chain';

let t: TestApp;
let server: Server;
beforeAll(async () => {
  t = await createTestApp();
  server = t.app.listen(0);
  await t.db.db.execute(sql`INSERT INTO plans (id, name, monthly_quota) VALUES ('batch-small', 'Small', 5)`);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

async function onPlan(account: TestAccount, plan: string): Promise<void> {
  await t.db.db.execute(sql`UPDATE accounts SET plan_id = ${plan} WHERE email = ${account.email}`);
}

const batch = (account: TestAccount, items: unknown) =>
  request(server)
    .post('/api/v1/invoices/batch')
    .set(account.auth)
    .send(items as object);

test('a mixed batch: each item registered or refused on its own, results in request order, 207', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  await onPlan(account, 'business');
  const second = await createTaxpayer(server, account);
  const other = await readyAccount(server);
  const existing = invoiceBody(taxpayerId, systemId, { invoice_number: 'B-EXISTING' });
  await request(server).post('/api/v1/invoices').set(account.auth).send(existing).expect(201);

  const items = [
    invoiceBody(taxpayerId, systemId, { invoice_number: 'B-1' }),
    invoiceBody(second, systemId, { invoice_number: 'B-2' }),
    invoiceBody(taxpayerId, systemId, { invoice_number: 'B-3', total_amount: 'abc' }),
    invoiceBody(taxpayerId, systemId, { invoice_number: 'B-1' }),
    existing,
    invoiceBody(other.taxpayerId, systemId, { invoice_number: 'B-6' }),
    invoiceBody(taxpayerId, other.systemId, { invoice_number: 'B-7' }),
    invoiceBody(taxpayerId, systemId, { invoice_number: 'B-8' }),
  ];
  const res = await batch(account, items).expect(207);
  expect(res.body).toMatchObject({ registered: 3, failed: 5 });
  expect(res.body.results.map((r: { index: number; status: number }) => [r.index, r.status])).toEqual([
    [0, 201],
    [1, 201],
    [2, 422],
    [3, 409],
    [4, 409],
    [5, 404],
    [6, 404],
    [7, 201],
  ]);
  const problems = res.body.results
    .filter((r: { status: number }) => r.status !== 201)
    .map((r: { problem: { code: string } }) => r.problem.code);
  expect(problems).toEqual(['validation_failed', 'duplicate_invoice', 'duplicate_invoice', 'taxpayer_not_found', 'system_not_found']);
  expect(res.body.results[2].problem).toMatchObject({
    type: 'urn:vf:problem:validation_failed',
    status: 422,
    request_id: res.headers['x-request-id'],
  });

  // What each item was told is what is stored, and the first taxpayer's items went in array order.
  for (const r of res.body.results.filter((x: { status: number }) => x.status === 201)) {
    const detail = (await request(server).get(`/api/v1/invoices/${r.data.id}`).set(account.auth).expect(200)).body.data;
    expect(detail).toMatchObject({ invoice_number: r.data.invoice_number, hash: r.data.hash, chain_position: r.data.chain_position });
  }
  const chain = await expectExactChain(t.db.db, taxpayerId);
  expect(chain.map((r) => r.invoice_number)).toEqual(['B-EXISTING', 'B-1', 'B-8']);
  expect((await expectExactChain(t.db.db, second)).map((r) => r.invoice_number)).toEqual(['B-2']);
  // Each chain's sender was woken once, whatever the number of its records.
  const chains = await t.db.db.execute<{ id: string }>(sql`SELECT id FROM chains WHERE taxpayer_id IN (${taxpayerId}, ${second})`);
  for (const c of chains.rows)
    expect((await waitUntil(() => t.queues.submission.getJob(chainJobId(c.id)), "the chain's job")).data).toEqual({ chainId: c.id });
});

test('1,000 invoices of one taxpayer in one request: 201, one transaction, one exact chain in array order', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  await onPlan(account, 'business');
  const items = Array.from({ length: 1000 }, (_, i) =>
    invoiceBody(taxpayerId, systemId, { invoice_number: `K-${String(i).padStart(4, '0')}` }),
  );
  const res = await batch(account, items).expect(201);
  expect(res.body).toMatchObject({ registered: 1000, failed: 0 });
  expect(res.body.results.map((r: { data: { chain_position: number } }) => r.data.chain_position)).toEqual(
    Array.from({ length: 1000 }, (_, i) => i + 1),
  );

  const chain = await expectExactChain(t.db.db, taxpayerId);
  expect(chain.map((r) => r.invoice_number)).toEqual(items.map((i) => i.invoice_number));
  // now() is the transaction's start: one value for all 1,000 rows means one transaction.
  const tx = await t.db.db.execute<{ n: number }>(
    sql`SELECT count(DISTINCT created_at)::int AS n FROM invoices WHERE taxpayer_id = ${taxpayerId}`,
  );
  expect(tx.rows[0].n).toBe(1);
  const me = await request(server).get('/api/v1/account').set(account.auth).expect(200);
  expect(me.body.data.usage.used).toBe(1000);
});

test("a batch's texts come back as sent, whether or not the same column is NULL in another record of the write", async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  await onPlan(account, 'business');
  const sent = [
    { description: 'NULL', issued_by: 'recipient' },
    { description: 'A "B", {C} \\ D', third_party: null },
    { description: '"', issued_by: 'third_party', third_party: { name: 'Gestoría "Tercera", SL', nif: 'A86018322' } },
    { description: 'NULL', operation_date: null },
  ];
  const res = await batch(
    account,
    sent.map((s, i) => invoiceBody(taxpayerId, systemId, { invoice_number: `T-${i}`, ...s })),
  ).expect(201);
  const shown = [];
  for (const r of res.body.results) {
    shown.push((await request(server).get(`/api/v1/invoices/${r.data.id}`).set(account.auth).expect(200)).body.data);
  }
  expect(shown.map((d) => [d.description, d.issued_by, d.third_party])).toEqual([
    ['NULL', 'recipient', null],
    ['A "B", {C} \\ D', null, null],
    ['"', 'third_party', { name: 'Gestoría "Tercera", SL', nif: 'A86018322' }],
    ['NULL', null, null],
  ]);
  // The first record of the chain has no previous huella, the others do: one column, NULL and not.
  expect((await expectExactChain(t.db.db, taxpayerId)).map((r) => r.previous_hash === null)).toEqual([true, false, false, false]);
});

test('each item counts against the monthly quota: the items past it are refused, the others registered', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  const second = await createTaxpayer(server, account);
  await onPlan(account, 'batch-small');
  const items = Array.from({ length: 8 }, (_, i) => invoiceBody(i % 2 ? second : taxpayerId, systemId));
  const res = await batch(account, items).expect(207);
  const statuses = res.body.results.map((r: { status: number }) => r.status);
  expect(statuses.filter((s: number) => s === 201)).toHaveLength(5);
  expect(statuses.filter((s: number) => s === 429)).toHaveLength(3);
  for (const r of res.body.results.filter((x: { status: number }) => x.status === 429))
    expect(r.problem).toMatchObject({ code: 'quota_exceeded', quota: 5, used: 5 });
  const stored = await t.db.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM invoices WHERE taxpayer_id IN (${taxpayerId}, ${second})`,
  );
  expect(stored.rows[0].n).toBe(5);
});

test('a body that is not an array of 1 to 1,000 invoices is refused whole, nothing registered', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  await onPlan(account, 'business');
  for (const body of [{}, [], Array.from({ length: 1001 }, () => invoiceBody(taxpayerId, systemId))]) {
    const res = await batch(account, body).expect(422);
    expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ code: 'invalid_batch' }] });
  }
  await request(server).get('/api/v1/invoices/batch').set(account.auth).expect(405);
  const stored = await t.db.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM invoices WHERE taxpayer_id = ${taxpayerId}`);
  expect(stored.rows[0].n).toBe(0);
});

test('an Idempotency-Key makes a retried batch get the first answer, registering nothing twice', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  const items = [invoiceBody(taxpayerId, systemId), invoiceBody(taxpayerId, systemId, { total_amount: 'x' })];
  const key = randomUUID();
  const first = await batch(account, items).set('Idempotency-Key', key).expect(207);
  const again = await batch(account, items).set('Idempotency-Key', key).expect(207);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.body).toEqual(first.body);
  const stored = await t.db.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM invoices WHERE taxpayer_id = ${taxpayerId}`);
  expect(stored.rows[0].n).toBe(1);
});

test("a batch's records, lines and status events are linked as written, and go with their account, corrections included", async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  await onPlan(account, 'business');
  const res = await batch(account, [
    invoiceBody(taxpayerId, systemId, { invoice_number: 'L-1' }),
    invoiceBody(taxpayerId, systemId, { invoice_number: 'L-2' }),
  ]).expect(201);
  const [first] = res.body.results.map((r: { data: { id: string } }) => r.data.id);
  // A record's first status is implied by the record (decision 0065): its events are its later changes, as the
  // authority's answer writes this one.
  await t.db.db.execute(sql`UPDATE invoices SET authority_status = 'rejected' WHERE id = ${first}`);
  await t.db.db.execute(sql`INSERT INTO invoice_status_events (invoice_id, status, code) VALUES (${first}, 'rejected', 1100)`);
  await request(server)
    .put(`/api/v1/invoices/${first}`)
    .set(account.auth)
    .send(invoiceBody(taxpayerId, systemId, { invoice_number: 'L-1', description: 'Corregida' }))
    .expect(201);
  const links = await t.db.db.execute<{ record_type: string; own: boolean; lines: number; events: number }>(sql`
    SELECT i.record_type, i.invoice_id = i.id AS own,
      (SELECT count(*)::int FROM invoice_lines l WHERE l.invoice_id = i.id) AS lines,
      (SELECT count(*)::int FROM invoice_status_events e WHERE e.invoice_id = i.id) AS events
    FROM invoices i WHERE i.taxpayer_id = ${taxpayerId} ORDER BY i.chain_seq`);
  expect(links.rows).toEqual([
    { record_type: 'registration', own: true, lines: 1, events: 1 },
    { record_type: 'registration', own: true, lines: 1, events: 0 },
    { record_type: 'correction', own: false, lines: 1, events: 0 },
  ]);
  const correction = await t.db.db.execute<{ invoice_id: string }>(
    sql`SELECT invoice_id FROM invoices WHERE taxpayer_id = ${taxpayerId} AND record_type = 'correction'`,
  );
  expect(correction.rows[0].invoice_id).toBe(first);

  const recordIds = sql.param(
    (await t.db.db.execute<{ id: string }>(sql`SELECT id FROM invoices WHERE taxpayer_id = ${taxpayerId}`)).rows.map((r) => r.id),
  );
  const remaining = async () =>
    (
      await t.db.db.execute<{ n: number }>(sql`
        SELECT ((SELECT count(*) FROM invoices WHERE id = ANY(${recordIds}::uuid[]))
          + (SELECT count(*) FROM invoice_lines WHERE invoice_id = ANY(${recordIds}::uuid[]))
          + (SELECT count(*) FROM invoice_status_events WHERE invoice_id = ANY(${recordIds}::uuid[])))::int AS n`)
    ).rows[0].n;
  expect(await remaining()).toBe(7);
  await t.db.db.execute(sql`DELETE FROM accounts WHERE email = ${account.email}`);
  expect(await remaining()).toBe(0);
});
