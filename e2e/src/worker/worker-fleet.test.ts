import { sql } from 'drizzle-orm';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';
import { spawnWorker, stopWorker, workerStarted, type WorkerProcess } from '../support/worker-processes';
import { chainOrder, overlappingMessages } from '../support/chain-sends';

// Killing a worker mid-send, SIGTERM and the workers' niceness are in worker-lifecycle.test.ts: apart, the two files
// run side by side, and this drain is the longest test of the suite.
let env: WorkerTestEnv;
let party: Party;
const processes: WorkerProcess[] = [];

beforeAll(async () => {
  // The production answer deadline (60 s): under a fully loaded test machine a 1,000-record message can take many
  // seconds to validate, and a timeout would (correctly) resend it, which this file counts as arriving twice.
  // Niceness 0, not the default 10 (worker-lifecycle.test.ts checks that): here the workers share the cores with
  // jest's own workers, which at 10 left them a tenth of a core's share each, and this test is about what reaches the
  // authority, not about priorities.
  env = await WorkerTestEnv.create({
    env: { LOG_LEVEL: 'info', WORKER_CONCURRENCY: '16', AUTHORITY_TIMEOUT_MS: '60000', WORKER_NICE: '0' },
  });
  party = await env.party();
});
afterEach(async () => {
  await Promise.all(processes.splice(0).map((p) => stopWorker(p, 'SIGKILL')));
});
afterAll(async () => {
  await env?.close();
});

async function start(id: string): Promise<WorkerProcess> {
  const w = spawnWorker(id, env.env);
  processes.push(w);
  await workerStarted(w);
  return w;
}

// Invariants only: which worker sends what, and how a takeover splits a message, depend on timing. The
// 2,500-record, multi-process drain is a load run and lives in the benchmark (`npm run bench`, submission drain).
test('1,090 invoices of 3 taxpayers, drained by 3 worker processes, reach the authority exactly once, in chain order, at most 1,000 per message, respecting flow control', async () => {
  const sizes = [1_010, 40, 40];
  const taxpayers = await Promise.all(sizes.map(() => env.taxpayer(party, { certificate: 'own' })));
  const ids = (await Promise.all(taxpayers.map((t, i) => env.register(party, t.id, sizes[i])))).flat();
  expect(ids).toHaveLength(1_090);
  const counters = env.sim.state.counters;
  const before = { registered: counters.recordsRegistered, received: counters.recordsReceived };

  await Promise.all(['fleet-1', 'fleet-2', 'fleet-3'].map((id) => start(id)));
  const states = await env.settled(ids, 240_000).catch(async (err) => {
    const left = await env.db.db.execute(sql`SELECT taxpayer_id, authority_status, count(*) FROM invoices GROUP BY 1, 2`);
    throw new Error(
      `${err.message}\n${JSON.stringify(left.rows)}\n${processes.map((p) => p.output.join('').slice(-3000)).join('\n---\n')}`,
    );
  });

  expect(states.filter((s) => s.status !== 'accepted')).toEqual([]);
  expect(counters.recordsRegistered - before.registered).toBe(1_090);
  expect(counters.recordsReceived - before.received).toBe(1_090);
  expect(counters.duplicates).toBe(0);
  expect(counters.flowControlViolations).toBe(0);
  expect(counters.chainMismatches).toBe(0);
  expect(counters.maxRecordsPerMessage).toBeLessThanOrEqual(1_000);
  for (const t of taxpayers) {
    const arrived = counters.registeredByNif[t.nif].map((r) => r.invoiceNumber);
    expect(arrived).toEqual(await chainOrder(env.db, t.id));
  }
  // Every record was waiting before the first worker started: the big taxpayer's first message is a full one.
  const big = await env.db.db.execute<{ record_count: number }>(
    sql`SELECT record_count FROM submissions WHERE taxpayer_id = ${taxpayers[0].id} ORDER BY started_at LIMIT 1`,
  );
  expect(big.rows[0].record_count).toBe(1_000);
  expect(await overlappingMessages(env.db)).toEqual([]);
  const workers = await env.db.db.execute<{ worker_id: string }>(
    sql`SELECT DISTINCT worker_id FROM submissions WHERE taxpayer_id = ANY(${sql.param(taxpayers.map((t) => t.id))}::uuid[])`,
  );
  for (const w of workers.rows) expect(['fleet-1', 'fleet-2', 'fleet-3']).toContain(w.worker_id);
}, 300_000);
