import type { Server } from 'node:http';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { createDatabase, type Database } from '@vf/db';
import { invoiceBody, readyAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

// Registrations, corrections and cancellations go through one writer and one compare-and-swap on the chain head. Two
// API processes (each with its own pool) appending all three kinds to one chain at once must leave it exact, and two
// requests racing to append the next record of one invoice must not both succeed.

let t: TestApp;
let other: TestApp;
let otherDb: Database;
const servers: Server[] = [];
beforeAll(async () => {
  t = await createTestApp();
  otherDb = createDatabase(t.db.url, { max: 8 });
  other = await createTestApp({ db: otherDb.db, queues: t.queues });
  servers.push(t.app.listen(0), other.app.listen(0));
});
afterAll(async () => {
  for (const s of servers) await new Promise((resolve) => s.close(resolve));
  await other?.close();
  await otherDb?.close();
  await t?.close();
});

test('two processes registering, correcting and cancelling on one chain at once keep it exact, one next record per invoice', async () => {
  const [first, second] = servers;
  const { account, taxpayerId, systemId } = await readyAccount(first);
  await t.db.db.execute(sql`UPDATE accounts SET plan_id = 'business' WHERE email = ${account.email}`);
  const bodies = Array.from({ length: 8 }, (_, i) => invoiceBody(taxpayerId, systemId, { invoice_number: `K-${i}` }));
  const ids: string[] = [];
  for (const body of bodies)
    ids.push((await request(first).post('/api/v1/invoices').set(account.auth).send(body).expect(201)).body.data.id);
  // The authority has answered them all: each may now be corrected or cancelled.
  await t.db.db.execute(sql`UPDATE invoices SET authority_status = 'accepted' WHERE taxpayer_id = ${taxpayerId}`);

  const servedBy = (i: number) => (i % 2 === 0 ? first : second);
  const registrations = Array.from({ length: 30 }, (_, i) =>
    request(servedBy(i))
      .post('/api/v1/invoices')
      .set(account.auth)
      .send(invoiceBody(taxpayerId, systemId, { invoice_number: `N-${String(i).padStart(2, '0')}` })),
  );
  // Each invoice gets two requests for its next record at once, one per process.
  const cancellations = ids
    .slice(0, 4)
    .flatMap((id) => [first, second].map((s) => request(s).post(`/api/v1/invoices/${id}/cancel`).set(account.auth).send({ reason: 'x' })));
  const corrections = ids.slice(4).flatMap((id, n) =>
    [first, second].map((s) =>
      request(s)
        .put(`/api/v1/invoices/${id}`)
        .set(account.auth)
        .send({ ...bodies[4 + n], description: 'Corregida' }),
    ),
  );
  const [registered, cancelled, corrected] = await Promise.all([
    Promise.all(registrations),
    Promise.all(cancellations),
    Promise.all(corrections),
  ]);

  expect(registered.map((r) => r.status)).toEqual(Array(30).fill(201));
  // Of each pair, one appended the record and the other was told the invoice has it (or waits for its answer).
  for (const pair of [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [...cancelled, ...corrected].slice(2 * i, 2 * i + 2))) {
    expect(pair.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(['already_cancelled', 'invoice_awaiting_authority']).toContain(pair.find((r) => r.status === 409)!.body.code);
  }

  const { rows } = await t.db.db.execute<{
    id: string;
    invoice_id: string;
    chain_seq: number;
    previous_invoice_id: string | null;
    record_type: string;
  }>(
    sql`SELECT id, invoice_id, chain_seq, previous_invoice_id, record_type FROM invoices WHERE taxpayer_id = ${taxpayerId} ORDER BY chain_seq`,
  );
  expect(rows.map((r) => r.chain_seq)).toEqual(Array.from({ length: 8 + 30 + 8 }, (_, i) => i + 1));
  rows.forEach((r, i) => expect(r.previous_invoice_id).toBe(rows[i - 1]?.id ?? null));
  const kinds = (id: string) => rows.filter((r) => r.invoice_id === id).map((r) => r.record_type);
  for (const id of ids.slice(0, 4)) expect(kinds(id)).toEqual(['registration', 'cancellation']);
  for (const id of ids.slice(4)) expect(kinds(id)).toEqual(['registration', 'correction']);
  const current = await t.db.db.execute<{ id: string; current_record_id: string }>(
    sql`SELECT id, current_record_id FROM invoices WHERE taxpayer_id = ${taxpayerId} AND id = invoice_id`,
  );
  for (const r of current.rows) expect(r.current_record_id).toBe(rows.filter((x) => x.invoice_id === r.id).at(-1)!.id);

  // Every huella and every link, recomputed from what is stored, as the authority would check them.
  const nif = (await request(first).get(`/api/v1/taxpayers/${taxpayerId}`).set(account.auth).expect(200)).body.data.nif;
  const verified = await request(first).get(`/api/v1/chain/${nif}/verification`).set(account.auth).expect(200);
  expect(verified.body.data).toMatchObject({ valid: true, verified: 46, broken_link: null });
});
