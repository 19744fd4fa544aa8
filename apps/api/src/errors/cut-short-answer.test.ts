import { randomBytes, randomUUID } from 'node:crypto';
import { get } from 'node:http';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@vf/db/testing';
import { freePort, pollUntil, pollWhileRunning, startService, stopService, type ServiceProcess } from '@vf/private-servers';
import { csrfTokenIn } from '@vf/dashboard/testing';
import { invoiceBody, readyAccount, type TestAccount } from '../testing/api-fixtures';

// The API as operators run it (its own process, outside the test environment, where Express's default error handler
// prints to stderr), with two CSV exports failing after their first batch was sent. Everything the process printed is
// then searched for the failed query's parameters.

let db: TestDatabase;
let api: ServiceProcess;
let base: string;
let account: TestAccount;
let accountId: string;
let lastOfFirstBatch: string;

beforeAll(async () => {
  db = await createTestDatabase();
  const port = await freePort();
  api = startService('api', {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    DATABASE_URL: db.url,
    MASTER_KEY: randomBytes(32).toString('base64'),
    QUEUE_PREFIX: `vfcut-${randomUUID()}`,
    PASSWORD_HASH_COST: '10',
    LOG_LEVEL: 'info',
  });
  base = `http://127.0.0.1:${port}`;
  await pollWhileRunning(
    api,
    async () => (await request(base).get('/api/v1/health')).status === 200,
    'the API to serve /health',
    90_000,
    200,
  );

  const ready = await readyAccount(base);
  account = ready.account;
  const first = await request(base)
    .post('/api/v1/invoices')
    .set(account.auth)
    .send(invoiceBody(ready.taxpayerId, ready.systemId))
    .expect(201);
  // 600 more invoices, copies of the registered row with their own ids, numbers and chain positions: two batches.
  await db.db.execute(sql`
    INSERT INTO invoices
    SELECT (jsonb_populate_record(NULL::invoices, to_jsonb(i) || jsonb_build_object(
      'id', x.u, 'invoice_id', x.u, 'current_record_id', x.u, 'chain_seq', 1000 + x.g, 'invoice_number', 'BULK-' || x.g))).*
    FROM invoices i CROSS JOIN LATERAL (SELECT g, gen_random_uuid() AS u FROM generate_series(1, 600) g) x
    WHERE i.id = ${first.body.data.id}`);
  const rows = await db.db.execute<{ account_id: string; id: string }>(
    sql`SELECT account_id, id FROM invoices ORDER BY created_at DESC, id DESC OFFSET 499 LIMIT 1`,
  );
  ({ account_id: accountId, id: lastOfFirstBatch } = rows.rows[0]);
}, 180_000);

afterAll(async () => {
  if (api) await stopService(api);
  await db?.destroy();
});

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  return client;
}

/** The pid of a backend (not one of ours) waiting for a lock in a query that began after `since`. */
async function waitingQuery(watcher: pg.Client, since: Date, ours: number[]): Promise<number> {
  return pollUntil(
    async () => {
      const { rows } = await watcher.query<{ pid: number }>(
        // Any of the API's queries: only the export reads invoices here, and pg_stat_activity keeps a query's first
        // 1,024 bytes only (track_activity_query_size), too few to hold the list's FROM clause.
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
           AND query_start > $1 AND NOT (pid = ANY($2))`,
        [since, ours],
      );
      return rows[0]?.pid;
    },
    'an export query waiting for the table',
    30_000,
    20,
  );
}

/**
 * Requests `url` and makes its second read fail: the test holds the table, lets the first read through while a
 * second holder queues behind it, so the export's next read waits for that one, and is then cancelled.
 */
async function exportFailingMidStream(url: string, headers: Record<string, string>): Promise<{ bytes: number; complete: boolean }> {
  const [first, second, watcher] = await Promise.all([connect(), connect(), connect()]);
  try {
    const ours = [first, second, watcher].map((c) => (c as unknown as { processID: number }).processID);
    await first.query('BEGIN; LOCK TABLE invoices IN ACCESS EXCLUSIVE MODE');
    const start = new Date(Date.now() - 1_000);
    const answer = new Promise<{ bytes: number; complete: boolean }>((resolve, reject) => {
      get(url, { headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('close', () => resolve({ bytes, complete: res.complete }));
      }).on('error', reject);
    });
    await waitingQuery(watcher, start, ours);
    const queued = second.query('BEGIN; LOCK TABLE invoices IN ACCESS EXCLUSIVE MODE');
    await pollUntil(
      async () =>
        (await watcher.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'`, [ours[1]])).rowCount === 1,
      'the second holder to queue',
      30_000,
      20,
    );
    const released = (await first.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0].now;
    await first.query('COMMIT');
    const secondRead = await waitingQuery(watcher, released, ours);
    await queued;
    await watcher.query('SELECT pg_cancel_backend($1)', [secondRead]);
    await second.query('ROLLBACK');
    return await answer;
  } finally {
    await Promise.all([first, second, watcher].map((c) => c.end()));
  }
}

test('an export that fails after its first batch is cut short, and the failed query reaches no output with its parameters', async () => {
  const viaApi = await exportFailingMidStream(`${base}/api/v1/invoices/export`, account.auth);
  expect(viaApi).toMatchObject({ complete: false });
  expect(viaApi.bytes).toBeGreaterThan(0);

  const agent = request.agent(base);
  const login = await agent.get('/login').expect(200);
  await agent
    .post('/login')
    .type('form')
    .send({ _csrf: csrfTokenIn(login.text), email: account.email, password: account.password })
    .expect(303);
  const cookie = (await agent.get('/app').expect(200)).request.cookies;
  const viaDashboard = await exportFailingMidStream(`${base}/app/invoices/export.csv`, { cookie });
  expect(viaDashboard).toMatchObject({ complete: false });
  expect(viaDashboard.bytes).toBeGreaterThan(0);

  // The request log's line for each comes when its connection closes, after whatever the failure printed.
  await pollWhileRunning(
    api,
    async () =>
      api.output
        .join('')
        .split('\n')
        .filter((l) => l.includes('"msg":"request aborted"')).length === 2,
    'both exports to be logged as aborted',
    10_000,
  );
  const output = api.output.join('');
  for (const value of [accountId, lastOfFirstBatch, 'Failed query'])
    expect({ value, printed: output.includes(value) }).toEqual({ value, printed: false });
  const cut = output.split('\n').filter((l) => l.includes('answer cut short'));
  expect(cut.map((line) => JSON.parse(line))).toEqual(
    Array(2).fill(expect.objectContaining({ level: 40, err: { type: 'DatabaseError', code: '57014' } })),
  );
});
