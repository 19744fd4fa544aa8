import type { Server } from 'node:http';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { createTaxpayer, invoiceBody, readyAccount, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { quotaPeriod } from '@vf/chain';

let t: TestApp;
let server: Server;
beforeAll(async () => {
  t = await createTestApp();
  server = t.app.listen(0);
  await t.db.db.execute(
    sql`INSERT INTO plans (id, name, monthly_quota) VALUES ('tiny', 'Tiny', 3), ('small', 'Small', 5), ('large', 'Large', 100000)`,
  );
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

async function onPlan(account: TestAccount, plan: string): Promise<void> {
  await t.db.db.execute(sql`UPDATE accounts SET plan_id = ${plan} WHERE email = ${account.email}`);
}

test('registrations beyond the monthly quota get a 429 that explains it; validate and classify stay free', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  await onPlan(account, 'tiny');
  for (let i = 0; i < 3; i++)
    await request(server).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201);

  const res = await request(server).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(429);
  const { period, resetsAt } = quotaPeriod(new Date());
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status: 429, code: 'quota_exceeded', quota: 3, used: 3, period, resets_at: resetsAt.toISOString() });
  expect(res.body.detail).toMatch(/3 registrations per month/);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);

  await request(server).post('/api/v1/invoices/validate').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(200);
  await request(server)
    .post('/api/v1/invoices/classify')
    .set(account.auth)
    .send({ recipient_country: 'ES', issuer_territory: 'peninsula' })
    .expect(200);
  const me = await request(server).get('/api/v1/account').set(account.auth).expect(200);
  expect(me.body.data).toMatchObject({
    plan: 'tiny',
    monthly_quota: 3,
    usage: { period, used: 3, remaining: 0, resets_at: resetsAt.toISOString() },
  });
  const { rows } = await t.db.db.execute(sql`SELECT count(*)::int AS n FROM invoices WHERE taxpayer_id = ${taxpayerId}`);
  expect(rows[0]).toEqual({ n: 3 });
});

test('concurrent registrations across taxpayers cannot overshoot the quota', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  const second = await createTaxpayer(server, account, { nif: '89890002E', name: 'Second' });
  await onPlan(account, 'small');
  const responses = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      request(server)
        .post('/api/v1/invoices')
        .set(account.auth)
        .send(invoiceBody(i % 2 ? second : taxpayerId, systemId)),
    ),
  );
  const statuses = responses.map((r) => r.status).sort();
  expect(statuses).toEqual([...Array(5).fill(201), ...Array(7).fill(429)]);
  const { rows } = await t.db.db.execute(sql`
    SELECT (SELECT count(*) FROM invoices i JOIN accounts a ON a.id = i.account_id WHERE a.email = ${account.email})::int AS invoices,
           (SELECT sum(c.usage_used)::int FROM chains c JOIN taxpayers tp ON tp.id = c.taxpayer_id JOIN accounts a ON a.id = tp.account_id
            WHERE a.email = ${account.email}) AS used`);
  expect(rows[0]).toEqual({ invoices: 5, used: 5 });
});

test('a rejected registration does not use quota', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  await onPlan(account, 'tiny');
  const body = invoiceBody(taxpayerId, systemId);
  await request(server).post('/api/v1/invoices').set(account.auth).send(body).expect(201);
  await request(server).post('/api/v1/invoices').set(account.auth).send(body).expect(409);
  await request(server)
    .post('/api/v1/invoices')
    .set(account.auth)
    .send({ ...body, total_amount: 'x' })
    .expect(422);
  const me = await request(server).get('/api/v1/account').set(account.auth).expect(200);
  expect(me.body.data.usage.used).toBe(1);
});

test("a chain taking batches is granted several batches ahead, so a batch seldom waits on the account's allocation", async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  await onPlan(account, 'large');
  const allocated = async () => {
    const { rows } = await t.db.db.execute(sql`
      SELECT q.allocated FROM quota_allocations q JOIN accounts a ON a.id = q.account_id WHERE a.email = ${account.email}`);
    return rows[0]?.allocated;
  };
  const batchOf = (n: number) => Array.from({ length: n }, () => invoiceBody(taxpayerId, systemId));
  await request(server).post('/api/v1/invoices/batch').set(account.auth).send(batchOf(300)).expect(201);
  const afterFirst = await allocated();
  for (let i = 0; i < 4; i++) await request(server).post('/api/v1/invoices/batch').set(account.auth).send(batchOf(300)).expect(201);
  expect(await allocated()).toBe(afterFirst);
  const me = await request(server).get('/api/v1/account').set(account.auth).expect(200);
  expect(me.body.data.usage.used).toBe(1500);
});
