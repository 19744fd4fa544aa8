import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';
import { spawnWorker, stopWorker, workerStarted, type WorkerProcess } from '../support/worker-processes';
import { waitUntil } from '@vf/core/testing';

let env: WorkerTestEnv;
let party: Party;
const processes: WorkerProcess[] = [];

beforeAll(async () => {
  // The production answer deadline (60 s): under a fully loaded test machine a 1,000-record message can take many
  // seconds to validate, and a timeout would (correctly) resend it, which this file counts as arriving twice.
  env = await WorkerTestEnv.create({ env: { LOG_LEVEL: 'info', WORKER_CONCURRENCY: '16', AUTHORITY_TIMEOUT_MS: '60000' } });
  party = await env.party();
});
afterEach(async () => {
  await Promise.all(processes.splice(0).map((p) => stopWorker(p, 'SIGKILL')));
});
afterAll(async () => {
  await env?.close();
});

async function start(id: string, patch: Record<string, string> = {}): Promise<WorkerProcess> {
  const w = spawnWorker(id, { ...env.env, ...patch });
  processes.push(w);
  await workerStarted(w);
  return w;
}

/** The niceness of each thread of a process (Linux: field 19 of /proc/<pid>/task/<tid>/stat). */
function threadNiceness(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) =>
    Number(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]),
  );
}

const linux = process.platform === 'linux' ? test : test.skip;

linux('a worker leaves the CPU to the API: every thread of it, signing pool included, at niceness 10 unless WORKER_NICE says', async () => {
  const byDefault = await start('nice-default');
  const told = await start('nice-3', { WORKER_NICE: '3' });
  const [a, b] = [threadNiceness(byDefault.child.pid!), threadNiceness(told.child.pid!)];
  expect(a.length).toBeGreaterThan(5);
  expect(new Set(a)).toEqual(new Set([10]));
  expect(new Set(b)).toEqual(new Set([3]));
});

/** Messages of one chain that started before the previous one was settled: one sender at a time means none. */
async function overlappingMessages(): Promise<unknown[]> {
  const r = await env.db.db.execute(sql`
    SELECT chain_id FROM (
      SELECT chain_id, started_at, lag(finished_at) OVER (PARTITION BY chain_id ORDER BY started_at) AS previous_finished
      FROM submissions) s
    WHERE started_at < previous_finished`);
  return r.rows;
}

async function chainOrder(taxpayerId: string): Promise<string[]> {
  const r = await env.db.db.execute<{ invoice_number: string }>(
    sql`SELECT invoice_number FROM invoices WHERE taxpayer_id = ${taxpayerId} ORDER BY chain_seq`,
  );
  return r.rows.map((row) => row.invoice_number);
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
    expect(arrived).toEqual(await chainOrder(t.id));
  }
  // Every record was waiting before the first worker started: the big taxpayer's first message is a full one.
  const big = await env.db.db.execute<{ record_count: number }>(
    sql`SELECT record_count FROM submissions WHERE taxpayer_id = ${taxpayers[0].id} ORDER BY started_at LIMIT 1`,
  );
  expect(big.rows[0].record_count).toBe(1_000);
  expect(await overlappingMessages()).toEqual([]);
  const workers = await env.db.db.execute<{ worker_id: string }>(
    sql`SELECT DISTINCT worker_id FROM submissions WHERE taxpayer_id = ANY(${sql.param(taxpayers.map((t) => t.id))}::uuid[])`,
  );
  for (const w of workers.rows) expect(['fleet-1', 'fleet-2', 'fleet-3']).toContain(w.worker_id);
}, 300_000);

test('a worker killed mid-send loses nothing and registers nothing twice: another worker takes over and the resend is recognised', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  // A short answer deadline: a takeover waits for it (plus the waiting time) before resending.
  const quick = { AUTHORITY_TIMEOUT_MS: '8000' };
  await start('first', quick);
  await env.settled(await env.register(party, taxpayer.id, 1));
  // The next message reaches the simulator, which registers it and then takes its time to answer.
  env.sim.configure({ latencyMs: 2_500 });
  const ids = await env.register(party, taxpayer.id, 20);
  const inFlight = async () =>
    (await env.db.db.execute<{ id: string }>(sql`SELECT id FROM submissions WHERE taxpayer_id = ${taxpayer.id} AND outcome = 'in_flight'`))
      .rows;
  await waitUntil(async () => (await inFlight()).length > 0, 'a message in flight');
  await waitUntil(
    async () => (env.sim.state.counters.registeredByNif[taxpayer.nif]?.length ?? 0) > 1,
    'the simulator to register the message',
  );
  const [killed] = await inFlight();
  await stopWorker(processes[0], 'SIGKILL');
  env.sim.configure({ latencyMs: 0 });
  await start('second', quick);

  const states = await env.settled(ids);
  expect(states.filter((s) => s.status !== 'accepted')).toEqual([]);
  const arrived = env.sim.state.counters.registeredByNif[taxpayer.nif].map((r) => r.invoiceNumber);
  expect(arrived).toEqual(await chainOrder(taxpayer.id));
  expect(env.sim.state.counters.flowControlViolations).toBe(0);
  expect(env.sim.state.counters.chainMismatches).toBe(0);
  const submissions = await env.db.db.execute<{ id: string; outcome: string; worker_id: string; error_message: string | null }>(
    sql`SELECT id, outcome, worker_id, error_message FROM submissions WHERE taxpayer_id = ${taxpayer.id} ORDER BY started_at`,
  );
  const lost = submissions.rows.find((s) => s.id === killed?.id);
  expect(lost).toMatchObject({ outcome: 'transport_error', worker_id: 'first' });
  expect(lost?.error_message).toContain('stopped before the answer was recorded');
  const after = submissions.rows.slice(submissions.rows.indexOf(lost!) + 1);
  expect(after.map((s) => s.worker_id).every((w) => w === 'second')).toBe(true);
  expect(after.some((s) => s.outcome === 'answered')).toBe(true);
  expect(await overlappingMessages()).toEqual([]);
}, 300_000);

test('SIGTERM finishes the message in hand, releases the lease and exits cleanly', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const w = await start('graceful');
  await env.settled(await env.register(party, taxpayer.id, 1));
  env.sim.configure({ latencyMs: 1_500 });
  try {
    const ids = await env.register(party, taxpayer.id, 5);
    await waitUntil(
      async () =>
        (await env.db.db.execute(sql`SELECT 1 FROM submissions WHERE taxpayer_id = ${taxpayer.id} AND outcome = 'in_flight'`)).rows.length >
        0,
      'a message in flight',
    );
    w.child.kill('SIGTERM');
    expect(await w.exited).toEqual({ code: 0, signal: null });

    expect((await env.states(ids)).map((s) => s.status)).toEqual(Array(5).fill('accepted'));
    const lease = await env.db.db.execute<{ lease_owner: string | null }>(
      sql`SELECT lease_owner FROM send_states s JOIN chains c ON c.id = s.chain_id WHERE c.taxpayer_id = ${taxpayer.id}`,
    );
    expect(lease.rows[0].lease_owner).toBeNull();
  } finally {
    env.sim.configure({ latencyMs: 0 });
  }
}, 180_000);
