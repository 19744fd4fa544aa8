import type { Server } from 'node:http';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { createDatabase, submissionRecordStore, type Database } from '@vf/db';
import { invoiceBody, readyAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { expectExactChain } from './testing/expect-exact-chain';

// A worker opens a message in a transaction that inserts the chain's submission: its foreign key holds the chain's row
// FOR KEY SHARE until that transaction commits. Registrations on the chain must not wait for it (the worker runs at
// a lower CPU priority, so its commit can be late while registrations arrive), on any path of the appender.

let t: TestApp;
let server: Server;
let workerDb: Database;
beforeAll(async () => {
  t = await createTestApp();
  server = t.app.listen(0);
  workerDb = createDatabase(t.db.url, { max: 2 });
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await workerDb?.close();
  await t?.close();
});

/** The worker's transaction opening a message of `invoiceIds`, held open until `commit` is called. */
async function openMessageHeldOpen(taxpayerId: string, chainId: string, invoiceIds: string[]) {
  let commit!: () => void;
  const committed = new Promise<void>((resolve) => (commit = resolve));
  let holderPid!: number;
  let opened!: () => void;
  const isOpen = new Promise<void>((resolve) => (opened = resolve));
  const done = workerDb.db.transaction(async (tx) => {
    holderPid = ((await tx.execute(sql`SELECT pg_backend_pid() AS pid`)).rows[0] as { pid: number }).pid;
    await submissionRecordStore.open(
      tx,
      {
        taxpayerId,
        chainId,
        workerId: 'test',
        endpoint: 'https://example.invalid',
        certificateMode: 'platform',
        incident: false,
        requestXml: '<x/>',
        invoiceIds,
      },
      'abandoned',
    );
    opened();
    await committed;
  });
  await isOpen;
  return { holderPid, commit: async () => (commit(), done) };
}

/** Resolves once some backend waits for a lock held by `pid`: what a registration blocked by the worker would do. */
async function blockedBy(pid: number, stop: { stopped: boolean }): Promise<'blocked' | undefined> {
  while (!stop.stopped) {
    const { rows } = await t.db.db.execute(sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE ${pid} = ANY(pg_blocking_pids(pid))`);
    if ((rows[0] as { n: number }).n > 0) return 'blocked';
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

/** What `work` gives, or 'blocked' when it waited for the worker's transaction instead. */
async function unlessBlocked<T>(holderPid: number, work: PromiseLike<T>): Promise<T | 'blocked'> {
  const stop = { stopped: false };
  try {
    const outcome = await Promise.race([work, blockedBy(holderPid, stop)]);
    return outcome ?? 'blocked';
  } finally {
    stop.stopped = true;
  }
}

test('registrations and batches on a chain are answered while a worker is opening a message of that chain', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  const first = await request(server).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201);
  const { rows } = await t.db.db.execute(sql`SELECT chain_id FROM invoices WHERE id = ${first.body.data.id}`);
  const chainId = (rows[0] as { chain_id: string }).chain_id;
  const worker = await openMessageHeldOpen(taxpayerId, chainId, [first.body.data.id]);

  const post = (body: Record<string, unknown>) => request(server).post('/api/v1/invoices').set(account.auth).send(body);
  const status = (r: request.Response) => r.status;
  // One alone (the optimistic write, its chain rows locked for the statement), then several at once (grouped), then a batch.
  const alone = await unlessBlocked(worker.holderPid, post(invoiceBody(taxpayerId, systemId)).then(status));
  const together = await unlessBlocked(
    worker.holderPid,
    Promise.all(Array.from({ length: 8 }, () => post(invoiceBody(taxpayerId, systemId)).then(status))),
  );
  const batch = await unlessBlocked(
    worker.holderPid,
    request(server)
      .post('/api/v1/invoices/batch')
      .set(account.auth)
      .send(Array.from({ length: 5 }, () => invoiceBody(taxpayerId, systemId)))
      .then(status),
  );
  await worker.commit();

  expect({ alone, together, batch }).toEqual({ alone: 201, together: Array(8).fill(201), batch: 201 });
  expect((await expectExactChain(t.db.db, taxpayerId)).length).toBe(15);
});

test('an append under the chain row lock (a chain taking quota) is answered while a worker is opening a message of that chain', async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  await t.db.db.execute(sql`UPDATE accounts SET plan_id = 'business' WHERE email = ${account.email}`);
  const first = await request(server).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201);
  const { rows } = await t.db.db.execute(sql`SELECT chain_id FROM invoices WHERE id = ${first.body.data.id}`);
  const chainId = (rows[0] as { chain_id: string }).chain_id;
  // The chain's allowance used up: the next registration takes quota, reading its head under the row's lock.
  await t.db.db.execute(sql`UPDATE chains SET usage_allowance = usage_used WHERE id = ${chainId}`);
  const worker = await openMessageHeldOpen(taxpayerId, chainId, [first.body.data.id]);

  const status = await unlessBlocked(
    worker.holderPid,
    request(server)
      .post('/api/v1/invoices')
      .set(account.auth)
      .send(invoiceBody(taxpayerId, systemId))
      .then((r) => r.status),
  );
  await worker.commit();

  expect(status).toBe(201);
  expect((await expectExactChain(t.db.db, taxpayerId)).length).toBe(2);
});

test("a change to a system is answered while a worker is opening a message of one of the account's chains", async () => {
  const { account, taxpayerId, systemId } = await readyAccount(server);
  const first = await request(server).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201);
  const { rows } = await t.db.db.execute(sql`SELECT chain_id FROM invoices WHERE id = ${first.body.data.id}`);
  const worker = await openMessageHeldOpen(taxpayerId, (rows[0] as { chain_id: string }).chain_id, [first.body.data.id]);

  // The change locks the account's chains as registrations do, to count the taxpayers whose records name the system.
  const status = await unlessBlocked(
    worker.holderPid,
    request(server)
      .put(`/api/v1/systems/${systemId}`)
      .set(account.auth)
      .send({ version: '9.9' })
      .then((r) => r.status),
  );
  await worker.commit();

  expect(status).toBe(200);
});
