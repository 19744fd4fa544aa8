import type { Server } from 'node:http';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { createRegistrationAppender, type RegistrationItem } from '@vf/chain';
import { madridToday, validateInvoiceRequest } from '@vf/core';
import { createDatabase, type Database } from '@vf/db';
import { accountStore, type AccountWithPlan } from '@vf/db';
import { createSystem, createTaxpayer, invoiceBody, readyAccount, registerAccount, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { digestApiKey } from '../auth/api-key';
import { expectExactChain } from './testing/expect-exact-chain';

let t: TestApp;
let server: Server;
const extraPools: Database[] = [];
beforeAll(async () => {
  t = await createTestApp();
  server = t.app.listen(0);
  await t.db.db.execute(sql`INSERT INTO plans (id, name, monthly_quota) VALUES ('group-thirty', 'Thirty', 30)`);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  for (const d of extraPools) await d.close();
  await t.close();
});

async function onPlan(account: TestAccount, plan: string): Promise<void> {
  await t.db.db.execute(sql`UPDATE accounts SET plan_id = ${plan} WHERE email = ${account.email}`);
}

async function accountRow(account: TestAccount): Promise<AccountWithPlan> {
  return (await accountStore.findByEmail(t.db.db, account.email))!;
}

function item(body: Record<string, unknown>): RegistrationItem {
  const result = validateInvoiceRequest(body, { today: madridToday() });
  if (!result.valid) throw new Error(JSON.stringify(result.errors));
  return { invoice: result.invoice, warnings: result.warnings };
}

/** An appender on a pool of its own: what another API process is to the database. */
function anotherProcess(opts: { optimisticAttempts?: number; concurrentCommits?: number } = {}) {
  const database = createDatabase(t.db.url, { max: 8 });
  extraPools.push(database);
  return createRegistrationAppender({ db: database.db, clock: () => new Date(), afterAppend: async () => undefined, ...opts });
}

test('registrations arriving while an append is in flight go together in the next transaction, each in its arrival order', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  const appender = anotherProcess();
  const who = await accountRow(account);
  const numbers = Array.from({ length: 10 }, (_, i) => `G-${i}`);
  // All ten arrive in the same tick: the first starts an append at once, the nine others wait for it, then go as one.
  const results = await Promise.all(
    numbers.map((n) =>
      appender.append({ account: who, taxpayerId, items: [item(invoiceBody(taxpayerId, systemId, { invoice_number: n }))] }),
    ),
  );
  expect(results.map((r) => r.outcomes[0].ok && r.outcomes[0].registered.chainPosition)).toEqual(numbers.map((_, i) => i + 1));

  const chain = await expectExactChain(t.db.db, taxpayerId);
  expect(chain.map((r) => r.invoice_number)).toEqual(numbers);
  // now() is the transaction's start: the first record has a transaction of its own, the other nine share one.
  expect(new Set(chain.slice(1).map((r) => r.created_at)).size).toBe(1);
  expect(chain[1].created_at).not.toBe(chain[0].created_at);
});

test('registrations by API key and by account for one taxpayer, waiting together: each key checked by the read, a wrong one refused alone', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  const appender = anotherProcess({ concurrentCommits: 2 });
  const who = await accountRow(account);
  const byKey = { keyDigest: digestApiKey(account.apiKey) };
  const wrongKey = { keyDigest: digestApiKey(`vfk_${'C'.repeat(43)}`) };
  const owners = Array.from({ length: 12 }, (_, i) => [who, byKey, wrongKey][i % 3]);
  const results = await Promise.all(
    owners.map((owner, i) =>
      appender.append({ account: owner, taxpayerId, items: [item(invoiceBody(taxpayerId, systemId, { invoice_number: `K-${i}` }))] }),
    ),
  );
  const refused = results.flatMap((r, i) => (r.outcomes[0].ok ? [] : [[i, r.outcomes[0].error.code]]));
  expect(refused).toEqual(owners.flatMap((o, i) => (o === wrongKey ? [[i, 'unauthorized']] : [])));
  const chain = await expectExactChain(t.db.db, taxpayerId);
  expect(chain.map((r) => r.invoice_number).sort()).toEqual(owners.flatMap((o, i) => (o === wrongKey ? [] : [`K-${i}`])).sort());
});

test('registrations of many taxpayers waiting together go in one transaction, each to its own exact chain', async () => {
  const account = await registerAccount(server);
  const systemId = await createSystem(server, account);
  const taxpayers = await Promise.all(Array.from({ length: 10 }, () => createTaxpayer(server, account)));
  await onPlan(account, 'business');
  const appender = anotherProcess({ concurrentCommits: 2 });
  const who = await accountRow(account);
  const register = (id: string, number: string) =>
    appender.append({ account: who, taxpayerId: id, items: [item(invoiceBody(id, systemId, { invoice_number: number }))] });
  // A chain's first registration of the month takes its quota allowance, in a transaction of its own.
  for (const [i, id] of taxpayers.entries()) await register(id, `M-${i}-0`);
  // Two commits start at once with the first two taxpayers; the eight others wait and go together in the next one.
  const results = await Promise.all(taxpayers.map((id, i) => register(id, `M-${i}-1`)));
  expect(results.every((r) => r.outcomes[0].ok)).toBe(true);
  const chains = await Promise.all(taxpayers.map((id) => expectExactChain(t.db.db, id)));
  expect(chains.map((c) => c.map((r) => r.invoice_number))).toEqual(taxpayers.map((_, i) => [`M-${i}-0`, `M-${i}-1`]));
  expect(new Set(chains.slice(2).map((c) => c[1].created_at)).size).toBe(1);
});

test('under concurrency, duplicates and invalid items fail alone and the chain stays exact', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server, { nif: '89890003T' });
  await onPlan(account, 'business');
  const foreignSystem = await createSystem(server, await registerAccount(server));
  const bodies = [
    ...Array.from({ length: 40 }, (_, i) => invoiceBody(taxpayerId, systemId, { invoice_number: `U-${i}` })),
    ...Array.from({ length: 10 }, (_, i) => invoiceBody(taxpayerId, systemId, { invoice_number: `U-${i * 3}` })),
    ...Array.from({ length: 5 }, (_, i) => invoiceBody(taxpayerId, foreignSystem, { invoice_number: `X-${i}` })),
    ...Array.from({ length: 5 }, (_, i) =>
      invoiceBody(taxpayerId, systemId, { invoice_number: `Y-${i}`, recipient: { name: 'Yo', nif: '89890003T' } }),
    ),
  ];
  const responses = await Promise.all(bodies.map((b) => request(server).post('/api/v1/invoices').set(account.auth).send(b)));
  const count = (status: number) => responses.filter((r) => r.status === status).length;
  expect([count(201), count(409), count(404), count(422)]).toEqual([40, 10, 5, 5]);
  for (const r of responses.filter((x) => x.status === 404)) expect(r.body.code).toBe('system_not_found');
  for (const r of responses.filter((x) => x.status === 422))
    expect(r.body.errors).toEqual([expect.objectContaining({ code: 'recipient_is_issuer' })]);

  const chain = await expectExactChain(t.db.db, taxpayerId);
  expect(chain).toHaveLength(40);
  expect(new Set(chain.map((r) => r.invoice_number))).toEqual(new Set(bodies.slice(0, 40).map((b) => b.invoice_number)));
  const stored = new Map(chain.map((r) => [r.id, r.hash]));
  for (const r of responses.filter((x) => x.status === 201)) expect(stored.get(r.body.data.id)).toBe(r.body.data.hash);
});

test('two API processes appending to one taxpayer, one of them locking the head, keep one exact chain', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  await onPlan(account, 'business');
  const who = await accountRow(account);
  const optimistic = anotherProcess();
  const locking = anotherProcess({ optimisticAttempts: 0 });
  const appends = Array.from({ length: 150 }, (_, i) => {
    const appender = [optimistic, locking][i % 2];
    // Some requests carry several invoices, like a batch's items of one taxpayer.
    const items = Array.from({ length: 1 + (i % 3) }, (_, k) => item(invoiceBody(taxpayerId, systemId, { invoice_number: `P-${i}-${k}` })));
    return appender.append({ account: who, taxpayerId, items });
  });
  const results = await Promise.all(appends);
  const registered = results.flatMap((r) => r.outcomes).filter((o) => o.ok);
  expect(registered).toHaveLength(300);

  const chain = await expectExactChain(t.db.db, taxpayerId);
  expect(chain).toHaveLength(300);
  // A request's invoices are consecutive in the chain, in their order.
  const position = new Map(chain.map((r) => [r.invoice_number, r.chain_seq]));
  for (let i = 0; i < 150; i++) {
    const mine = Array.from({ length: 1 + (i % 3) }, (_, k) => position.get(`P-${i}-${k}`)!);
    expect(mine).toEqual(mine.map((_, k) => mine[0] + k));
  }
});

test('the monthly quota holds exactly under concurrent registrations across taxpayers and processes', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  const taxpayers = [taxpayerId, await createTaxpayer(server, account), await createTaxpayer(server, account)];
  await onPlan(account, 'group-thirty');
  const who = await accountRow(account);
  const processes = [anotherProcess(), anotherProcess(), anotherProcess({ optimisticAttempts: 0 })];
  const results = await Promise.all(
    Array.from({ length: 90 }, (_, i) =>
      processes[i % 3].append({
        account: who,
        taxpayerId: taxpayers[i % taxpayers.length],
        items: [item(invoiceBody(taxpayers[i % taxpayers.length], systemId))],
      }),
    ),
  );
  const outcomes = results.flatMap((r) => r.outcomes);
  expect(outcomes.filter((o) => o.ok)).toHaveLength(30);
  for (const o of outcomes) if (!o.ok) expect(o.error.code).toBe('quota_exceeded');

  const stored = await t.db.db.execute<{ invoices: number; used: number; allocated: number }>(sql`
    SELECT (SELECT count(*) FROM invoices i JOIN taxpayers tp ON tp.id = i.taxpayer_id JOIN accounts a ON a.id = tp.account_id WHERE a.email = ${account.email})::int AS invoices,
           (SELECT sum(c.usage_used) FROM chains c JOIN taxpayers tp ON tp.id = c.taxpayer_id JOIN accounts a ON a.id = tp.account_id WHERE a.email = ${account.email})::int AS used,
           (SELECT allocated FROM quota_allocations q JOIN accounts a ON a.id = q.account_id WHERE a.email = ${account.email}) AS allocated`);
  expect(stored.rows[0].invoices).toBe(30);
  expect(stored.rows[0].used).toBe(30);
  expect(stored.rows[0].allocated).toBeLessThanOrEqual(30);
  for (const id of taxpayers) await expectExactChain(t.db.db, id);
  const me = await request(server).get('/api/v1/account').set(account.auth).expect(200);
  expect(me.body.data.usage).toMatchObject({ used: 30, remaining: 0 });
});
