import type { Server } from 'node:http';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { createRegistrationAppender, type RegistrationItem } from '@vf/chain';
import { madridToday, validateInvoiceRequest } from '@vf/core';
import { accountStore, createDatabase, type Database } from '@vf/db';
import { createSystem, createTaxpayer, invoiceBody, readyAccount, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { countCalls } from './testing/count-calls';
import { expectExactChain } from './testing/expect-exact-chain';

// A registration alone is written on the read the API process kept from its last write to the chain
// (`keptReads` in packages/chain/src/append/append-attempts.ts). Each test below changes, after that write, something the read found, and checks that
// the next registration was tried on the kept read, found it no longer holds, and read again: its outcome is what a
// fresh read gives.

let t: TestApp;
let server: Server;
let other: Database;
beforeAll(async () => {
  t = await createTestApp();
  server = t.app.listen(0);
  other = createDatabase(t.db.url, { max: 2 });
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await other.close();
  await t.close();
});

const TRIED_THEN_READ = ['vf_append_write_assumed_plain', 'vf_append_read'];

/** A taxpayer with two registrations, the second written on the read kept from the first's write. */
async function keptChain() {
  const ready = await readyAccount(server);
  const counted = countCalls();
  try {
    for (const n of ['K-1', 'K-2', 'K-3']) await register(ready.account, ready.taxpayerId, ready.systemId, n).expect(201);
    expect(counted.statements().slice(-1)).toEqual(['vf_append_write_assumed_plain']);
  } finally {
    counted.stop();
  }
  return ready;
}

const register = (account: TestAccount, taxpayerId: string, systemId: string, n: string) =>
  request(server)
    .post('/api/v1/invoices')
    .set(account.auth)
    .send(invoiceBody(taxpayerId, systemId, { invoice_number: n }));

/** The statements `act` sent, and what it returned. */
async function statementsOf<T>(act: () => Promise<T>): Promise<{ statements: string[]; result: T }> {
  const counted = countCalls();
  try {
    const result = await act();
    return { statements: counted.statements(), result };
  } finally {
    counted.stop();
  }
}

async function lastRecord(taxpayerId: string) {
  const { rows } = await t.db.db.execute<{ issuer_name: string; snapshot: Record<string, string> }>(sql`
    SELECT i.issuer_name, s.snapshot FROM invoices i JOIN system_snapshots s ON s.id = i.system_snapshot_id
    WHERE i.taxpayer_id = ${taxpayerId} ORDER BY i.chain_seq DESC LIMIT 1`);
  return rows[0];
}

test('an API key replaced after the kept read: the old key is refused at once, the new one registers', async () => {
  const { account, taxpayerId, systemId } = await keptChain();
  const res = await request(server).post('/api/v1/auth/regenerate-key').set(account.auth).expect(200);
  const renewed = { ...account, apiKey: res.body.data.api_key, auth: { Authorization: `Bearer ${res.body.data.api_key}` } };
  const old = await statementsOf(() => register(account, taxpayerId, systemId, 'K-4').expect(401));
  expect(old.statements).toEqual(TRIED_THEN_READ);
  await register(renewed, taxpayerId, systemId, 'K-4').expect(201);
  expect((await expectExactChain(t.db.db, taxpayerId)).map((r) => r.invoice_number)).toEqual(['K-1', 'K-2', 'K-3', 'K-4']);
});

test('a default recipient check set after the kept read: the next registration is checked', async () => {
  const { account, taxpayerId, systemId } = await keptChain();
  await request(server).put('/api/v1/account/settings').set(account.auth).send({ recipient_check: 'warn' }).expect(200);
  const next = await statementsOf(() => register(account, taxpayerId, systemId, 'K-4').expect(201));
  expect(next.statements.slice(0, 2)).toEqual(TRIED_THEN_READ);
  // The answer of a registration the account's default checked says so (a plain one has no such field).
  expect(next.result.body).toHaveProperty('recipient_check');
});

test('the taxpayer renamed after the kept read: the next record is issued under the new name', async () => {
  const { account, taxpayerId, systemId } = await keptChain();
  await request(server).put(`/api/v1/taxpayers/${taxpayerId}`).set(account.auth).send({ name: 'Nombre Nuevo SL' }).expect(200);
  const next = await statementsOf(() => register(account, taxpayerId, systemId, 'K-4').expect(201));
  expect(next.statements).toEqual([...TRIED_THEN_READ, 'vf_append_write_plain']);
  expect((await lastRecord(taxpayerId)).issuer_name).toBe('Nombre Nuevo SL');
  await expectExactChain(t.db.db, taxpayerId);
});

test('the system changed after the kept read: the next record names it as it is now', async () => {
  const { account, taxpayerId, systemId } = await keptChain();
  expect((await lastRecord(taxpayerId)).snapshot.Version).toBe('1.0.0');
  await request(server).put(`/api/v1/systems/${systemId}`).set(account.auth).send({ version: '2.0.0' }).expect(200);
  const next = await statementsOf(() => register(account, taxpayerId, systemId, 'K-4').expect(201));
  expect(next.statements).toEqual([...TRIED_THEN_READ, 'vf_append_write_plain']);
  expect((await lastRecord(taxpayerId)).snapshot.Version).toBe('2.0.0');
});

test('a second taxpayer in the account after the kept read: the next record says the account keeps several', async () => {
  const { account, taxpayerId, systemId } = await keptChain();
  expect((await lastRecord(taxpayerId)).snapshot.IndicadorMultiplesOT).toBe('N');
  await createTaxpayer(server, account);
  const next = await statementsOf(() => register(account, taxpayerId, systemId, 'K-4').expect(201));
  expect(next.statements).toEqual([...TRIED_THEN_READ, 'vf_append_write_plain']);
  expect((await lastRecord(taxpayerId)).snapshot.IndicadorMultiplesOT).toBe('S');
});

test('an invoice the chain already has, on the kept read: refused as a duplicate, nothing written', async () => {
  const { account, taxpayerId, systemId } = await keptChain();
  const again = await statementsOf(() => register(account, taxpayerId, systemId, 'K-2').expect(409));
  expect(again.result.body.code).toBe('duplicate_invoice');
  expect(again.statements).toEqual(TRIED_THEN_READ);
  expect((await expectExactChain(t.db.db, taxpayerId)).length).toBe(3);
});

test('another process appended after the kept read: the next registration goes after its record', async () => {
  const { account, taxpayerId, systemId } = await keptChain();
  const elsewhere = createRegistrationAppender({ db: other.db, clock: () => new Date(), afterAppend: async () => undefined });
  const who = (await accountStore.findByEmail(t.db.db, account.email))!;
  const [outcome] = (
    await elsewhere.append({ account: who, taxpayerId, items: [item(invoiceBody(taxpayerId, systemId, { invoice_number: 'X-1' }))] })
  ).outcomes;
  expect(outcome.ok).toBe(true);
  const next = await statementsOf(() => register(account, taxpayerId, systemId, 'K-4').expect(201));
  expect(next.statements).toEqual([...TRIED_THEN_READ, 'vf_append_write_plain']);
  expect((await expectExactChain(t.db.db, taxpayerId)).map((r) => r.invoice_number)).toEqual(['K-1', 'K-2', 'K-3', 'X-1', 'K-4']);
});

test('with an Idempotency-Key, on the kept read: the answer stored by the same statement and given again on a retry', async () => {
  const { account, taxpayerId, systemId } = await keptChain();
  const bodies = ['K-4', 'K-5'].map((n) => invoiceBody(taxpayerId, systemId, { invoice_number: n }));
  const send = (i: number) =>
    request(server).post('/api/v1/invoices').set(account.auth).set('Idempotency-Key', `kept-read-${i}`).send(bodies[i]);
  // The route checks a key that comes with an Idempotency-Key itself: the read kept is then the account's.
  await send(0).expect(201);
  const first = await statementsOf(() => send(1).expect(201));
  expect(first.statements.filter((s) => s.startsWith('vf_append'))).toEqual(['vf_append_write_assumed']);
  const again = await send(1).expect(201);
  expect(again.body).toEqual(first.result.body);
  expect((await expectExactChain(t.db.db, taxpayerId)).length).toBe(5);
});

test('a single-taxpayer system: taken by the first taxpayer, its next registrations on the kept read, another taxpayer refused', async () => {
  const { account, taxpayerId } = await readyAccount(server);
  const single = await createSystem(server, account, { supports_multiple_taxpayers: false, installation_number: 'INST-S' });
  for (const n of ['S-1', 'S-2']) await register(account, taxpayerId, single, n).expect(201);
  const next = await statementsOf(() => register(account, taxpayerId, single, 'S-3').expect(201));
  expect(next.statements).toEqual(['vf_append_write_assumed_plain']);
  const other = await createTaxpayer(server, account);
  const refused = await register(account, other, single, 'O-1');
  expect(refused.body.code).toBe('system_single_taxpayer');
  await register(account, taxpayerId, single, 'S-4').expect(201);
  expect((await expectExactChain(t.db.db, taxpayerId)).map((r) => r.invoice_number)).toEqual(['S-1', 'S-2', 'S-3', 'S-4']);
});

function item(body: Record<string, unknown>): RegistrationItem {
  const result = validateInvoiceRequest(body, { today: madridToday() });
  if (!result.valid) throw new Error(JSON.stringify(result.errors));
  return { invoice: result.invoice, warnings: result.warnings };
}
