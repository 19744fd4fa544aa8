import request from 'supertest';
import { sql } from 'drizzle-orm';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';
import { waitUntil } from '@vf/core/testing';

// Backoff scaled down 100 times (20 ms doubling instead of 2 s): the n-th failed send stands for the n-th of a real
// outage. With the default 2 s base, eleven failed sends in a row span 2 + 4 + … + 2048 s, more than 30 minutes.
// The simulated authority answers a waiting time of 0 s, so that the backoff alone paces the retries: a send without
// an answer waits the last known waiting time, and the usual 1 s would hold every one of the eleven for a second.
const FAILED_SENDS_FOR_30_MINUTES = 11;

let env: WorkerTestEnv;
let party: Party;

beforeAll(async () => {
  env = await WorkerTestEnv.create({
    behaviour: { waitSeconds: 0 },
    env: { SENDER_BACKOFF_BASE_MS: '20', SENDER_BACKOFF_MAX_MS: '200', SENDER_ERROR_AFTER_SECONDS: '2' },
  });
  party = await env.party();
  await env.startWorker();
});
afterAll(async () => {
  await env?.close();
});

async function failedSends(taxpayerId: string): Promise<number> {
  const r = await env.db.db.execute<{ n: string }>(
    sql`SELECT count(*) AS n FROM submissions WHERE taxpayer_id = ${taxpayerId} AND outcome = 'transport_error'`,
  );
  return Number(r.rows[0].n);
}

async function view(id: string) {
  return (await request(env.api).get(`/api/v1/invoices/${id}`).set(party.account.auth).expect(200)).body.data;
}

test('an outage of 30+ minutes, then recovery: every record accepted, in chain order, sent once after recovery, with no manual action', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  // A first answer makes the authority's waiting time known.
  await env.reach(await env.register(party, taxpayer.id, 1), ['accepted']);

  env.sim.inject({ kind: 'http503' });
  const early = await env.register(party, taxpayer.id, 3);
  await waitUntil(async () => (await failedSends(taxpayer.id)) >= 4, 'a few failed sends');
  // Registered in the middle of the outage: they must not overtake the earlier records.
  const late = await env.register(party, taxpayer.id, 2);
  const ids = [...early, ...late];
  await waitUntil(
    async () => (await failedSends(taxpayer.id)) >= FAILED_SENDS_FOR_30_MINUTES,
    'the outage to last the equivalent of 30 minutes',
    90_000,
  );

  // Past the error threshold every record shows `error`, says why and when it is tried next, and is still retried.
  const during = await env.reach(ids, ['error']);
  for (const s of during) expect(s.nextAttemptAt).not.toBeNull();
  const shown = await view(early[0]);
  expect(shown).toMatchObject({ authority_status: 'error', authority_code: null });
  expect(shown.next_attempt_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  expect(shown.authority_message).toMatch(/^The authority has not answered for a while .*keeps retrying on its own/);
  const hashesBefore = during.map((s) => s.hash);
  expect(env.sim.state.counters.registeredByNif[taxpayer.nif]).toHaveLength(1);

  env.sim.clearFaults({ kind: 'http503' });
  const after = await env.reach(ids, ['accepted']);

  // Unchanged records: same huella, same chain positions; registered once each, in generation order.
  expect(after.map((s) => s.hash)).toEqual(hashesBefore);
  const registered = env.sim.state.counters.registeredByNif[taxpayer.nif].map((r) => r.hash);
  expect(registered.slice(1)).toEqual(hashesBefore);
  // Sent exactly once after recovery: one answered message carried each record, with Incidencia=S.
  const answered = await env.db.db.execute<{ invoice_id: string; incident: boolean; n: string | number }>(sql`
    SELECT si.invoice_id, bool_and(s.incident) AS incident, count(*) AS n
    FROM submission_invoices si JOIN submissions s ON s.id = si.submission_id
    WHERE si.invoice_id = ANY(${sql.param(ids)}::uuid[]) AND s.outcome <> 'transport_error'
    GROUP BY si.invoice_id`);
  expect(answered.rows).toHaveLength(ids.length);
  for (const row of answered.rows) expect([row.incident, Number(row.n)]).toEqual([true, 1]);
  expect(env.sim.state.counters.duplicates).toBe(0);
  const recovered = await view(early[0]);
  expect(recovered).toMatchObject({ authority_status: 'accepted', next_attempt_at: null });
  expect(recovered.status_history.map((e: { status: string }) => e.status)).toContain('error');
});
