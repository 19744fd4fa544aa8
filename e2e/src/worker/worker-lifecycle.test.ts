import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';
import { spawnWorker, stopWorker, workerStarted, type WorkerProcess } from '../support/worker-processes';
import { chainOrder, overlappingMessages } from '../support/chain-sends';
import { waitUntil } from '@vf/core/testing';

// The multi-process drain is in worker-fleet.test.ts: apart, the two files run side by side.
let env: WorkerTestEnv;
let party: Party;
const processes: WorkerProcess[] = [];

beforeAll(async () => {
  // The production answer deadline (60 s) unless a test sets its own: under a fully loaded test machine a message can
  // take seconds to validate, and a timeout would (correctly) resend it.
  env = await WorkerTestEnv.create({ env: { LOG_LEVEL: 'info', WORKER_CONCURRENCY: '16', AUTHORITY_TIMEOUT_MS: '60000' } });
  party = await env.party();
});
afterEach(async () => {
  await Promise.all(processes.splice(0).map((p) => stopWorker(p, 'SIGKILL')));
});
afterAll(async () => {
  await env?.close();
});

// Niceness 0 unless a test says otherwise. The default 10 is what a deployment wants and what the first test checks;
// here the workers share the cores with jest's own workers, which at 10 left them a tenth of a core's share each.
const FAIR_SHARE = { WORKER_NICE: '0' };

async function start(id: string, patch: Record<string, string> = FAIR_SHARE): Promise<WorkerProcess> {
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
  const [byDefault, told] = await Promise.all([start('nice-default', {}), start('nice-3', { WORKER_NICE: '3' })]);
  const [a, b] = [threadNiceness(byDefault.child.pid!), threadNiceness(told.child.pid!)];
  expect(a.length).toBeGreaterThan(5);
  expect(new Set(a)).toEqual(new Set([10]));
  expect(new Set(b)).toEqual(new Set([3]));
});

test('a worker killed mid-send loses nothing and registers nothing twice: another worker takes over and the resend is recognised', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  // A short answer deadline: a takeover waits for it (plus the waiting time) before resending.
  const quick = { ...FAIR_SHARE, AUTHORITY_TIMEOUT_MS: '8000' };
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
  expect(arrived).toEqual(await chainOrder(env.db, taxpayer.id));
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
  expect(await overlappingMessages(env.db)).toEqual([]);
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
