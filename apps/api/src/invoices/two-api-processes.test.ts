import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@vf/db/testing';
import { freePort, pollWhileRunning, startService, stopService, type ServiceProcess } from '@vf/private-servers';
import { createTaxpayer, invoiceBody, readyAccount } from '../testing/api-fixtures';
import { expectExactChain } from './testing/expect-exact-chain';

// Two API processes, as behind a load balancer, appending to the same taxpayers' chains at once: each process groups
// its own requests, and only the chain head's compare-and-swap in PostgreSQL keeps the chains exact between them.
let db: TestDatabase;
const services: ServiceProcess[] = [];
const bases: string[] = [];

async function startApi(env: NodeJS.ProcessEnv): Promise<string> {
  const port = await freePort();
  const api = startService('api', { ...env, PORT: String(port) });
  services.push(api);
  const base = `http://127.0.0.1:${port}`;
  await pollWhileRunning(
    api,
    async () => (await request(base).get('/api/v1/health')).status === 200,
    'an API process to serve /health',
    90_000,
    200,
  );
  return base;
}

beforeAll(async () => {
  db = await createTestDatabase();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: db.url,
    MASTER_KEY: randomBytes(32).toString('base64'),
    QUEUE_PREFIX: `vftwo-${randomUUID()}`,
    LOG_LEVEL: 'warn',
  };
  bases.push(...(await Promise.all([startApi(env), startApi(env)])));
}, 240_000);

afterAll(async () => {
  await Promise.all(services.map((api) => stopService(api)));
  await db.destroy();
});

test('two API processes registering for the same taxpayers at once keep every chain exact, batches whole and in order', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(bases[0]);
  const second = await createTaxpayer(bases[0], account);
  await db.db.execute(sql`UPDATE accounts SET plan_id = 'business' WHERE email = ${account.email}`);
  const single = Array.from({ length: 160 }, (_, i) =>
    request(bases[i % 2])
      .post('/api/v1/invoices')
      .set(account.auth)
      .send(invoiceBody(i % 4 < 2 ? taxpayerId : second, systemId, { invoice_number: `P-${i}` })),
  );
  const batches = Array.from({ length: 4 }, (_, b) =>
    request(bases[b % 2])
      .post('/api/v1/invoices/batch')
      .set(account.auth)
      .send(Array.from({ length: 25 }, (_, k) => invoiceBody(taxpayerId, systemId, { invoice_number: `B-${b}-${k}` }))),
  );
  const [responses, batched] = await Promise.all([Promise.all(single), Promise.all(batches)]);
  expect(responses.map((r) => r.status)).toEqual(Array(160).fill(201));
  expect(batched.map((r) => r.status)).toEqual(Array(4).fill(201));

  const chain = await expectExactChain(db.db, taxpayerId);
  expect(chain).toHaveLength(80 + 100);
  expect(await expectExactChain(db.db, second)).toHaveLength(80);
  // A batch's items of one taxpayer are appended together, in array order.
  const position = new Map(chain.map((r) => [r.invoice_number, r.chain_seq]));
  for (let b = 0; b < 4; b++) {
    const seqs = Array.from({ length: 25 }, (_, k) => position.get(`B-${b}-${k}`)!);
    expect(seqs).toEqual(seqs.map((_, k) => seqs[0] + k));
  }
  const told = new Map(responses.map((r) => [r.body.data.id, r.body.data.hash]));
  for (const r of chain) if (told.has(r.id)) expect(told.get(r.id)).toBe(r.hash);
});
