import request from 'supertest';
import { sql } from 'drizzle-orm';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

// One chain per NIF and environment (decision 0006): a taxpayer that switched to production has two chains, and
// each has its own sender, lease and flow control, so neither waits for the other.
let env: WorkerTestEnv;
let party: Party;

beforeAll(async () => {
  env = await WorkerTestEnv.create();
  party = await env.party();
});
afterAll(async () => {
  await env?.close();
});

async function chainOf(taxpayerId: string, isProduction: boolean): Promise<string> {
  const r = await env.db.db.execute<{ id: string }>(
    sql`SELECT id FROM chains WHERE taxpayer_id = ${taxpayerId} AND is_production = ${isProduction}`,
  );
  return r.rows[0].id;
}

async function invoiceNumbers(ids: string[]): Promise<string[]> {
  const r = await env.db.db.execute<{ invoice_number: string }>(
    sql`SELECT invoice_number FROM invoices WHERE id = ANY(${sql.param(ids)}::uuid[]) ORDER BY chain_seq`,
  );
  return r.rows.map((row) => row.invoice_number);
}

test('a taxpayer with records waiting in its sandbox and its production chain gets two independent senders', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const sandboxIds = await env.register(party, taxpayer.id, 3);
  await request(env.api).put(`/api/v1/taxpayers/${taxpayer.id}`).set(party.account.auth).send({ is_production: true }).expect(200);
  const productionIds = await env.register(party, taxpayer.id, 4);
  const [sandbox, production] = [await chainOf(taxpayer.id, false), await chainOf(taxpayer.id, true)];

  // Another sender holds the sandbox chain for the next hour: the production chain must not care.
  await env.db.db.execute(
    sql`INSERT INTO send_states (chain_id, lease_owner, lease_until) VALUES (${sandbox}, 'elsewhere', now() + interval '1 hour')`,
  );
  await env.startWorker();
  expect((await env.reach(productionIds, ['accepted'])).map((s) => s.status)).toEqual(Array(4).fill('accepted'));
  expect((await env.states(sandboxIds)).map((s) => s.status)).toEqual(Array(3).fill('queued'));

  // That sender lets go (its lease ends): the sandbox chain's jobs, asleep until the lease's end, wake and drain it.
  await env.db.db.execute(sql`UPDATE send_states SET lease_owner = NULL, lease_until = NULL WHERE chain_id = ${sandbox}`);
  for (const id of sandboxIds) {
    const job = await env.apiQueues.submission.getJob(await env.jobId(id));
    if (job && (await job.isDelayed())) await job.promote().catch(() => undefined);
  }
  expect((await env.reach(sandboxIds, ['accepted'])).map((s) => s.status)).toEqual(Array(3).fill('accepted'));

  // Each message carried one chain, so one environment, to that environment's service.
  const messages = await env.db.db.execute<{ chain_id: string; endpoint: string; environments: boolean[]; chains: string[] }>(sql`
    SELECT s.chain_id, s.endpoint, array_agg(DISTINCT i.is_production) AS environments, array_agg(DISTINCT i.chain_id::text) AS chains
    FROM submissions s JOIN submission_invoices si ON si.submission_id = s.id JOIN invoices i ON i.id = si.invoice_id
    WHERE s.taxpayer_id = ${taxpayer.id} GROUP BY s.id`);
  expect(messages.rows.length).toBeGreaterThanOrEqual(2);
  for (const m of messages.rows) {
    expect(m.chains).toEqual([m.chain_id]);
    expect(m.environments).toEqual([m.chain_id === production]);
    expect(m.endpoint).toBe(m.chain_id === production ? env.sim.productionUrl : env.sim.url);
  }

  // Both registries hold their chain, in chain order; each service's flow control was respected on its own.
  const arrived = env.sim.state.counters.registeredByNif[taxpayer.nif];
  expect(arrived.filter((r) => r.environment === 'sandbox').map((r) => r.invoiceNumber)).toEqual(await invoiceNumbers(sandboxIds));
  expect(arrived.filter((r) => r.environment === 'production').map((r) => r.invoiceNumber)).toEqual(await invoiceNumbers(productionIds));
  expect(env.sim.state.counters).toMatchObject({ flowControlViolations: 0, chainMismatches: 0, duplicates: 0 });

  // Two timers, one per chain, each moved by its own sends.
  const timers = await env.db.db.execute<{ chain_id: string; sent: boolean }>(
    sql`SELECT chain_id, last_send_at IS NOT NULL AS sent FROM send_states WHERE chain_id = ANY(${sql.param([sandbox, production])}::uuid[]) ORDER BY chain_id`,
  );
  expect(timers.rows).toEqual([sandbox, production].sort().map((chain_id) => ({ chain_id, sent: true })));
}, 240_000);
