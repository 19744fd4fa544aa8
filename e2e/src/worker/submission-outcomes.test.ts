import { sql } from 'drizzle-orm';
import request from 'supertest';
import { validateAgainstXsd } from '@vf/xml';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

// One simulator, database and worker for the file; each test uses its own taxpayers.
let env: WorkerTestEnv;
let party: Party;
const UNKNOWN_RECIPIENT = '12345678Z';

beforeAll(async () => {
  env = await WorkerTestEnv.create({ unknownNifs: [UNKNOWN_RECIPIENT], behaviour: { validateSchema: true } });
  party = await env.party();
  await env.startWorker();
});
afterAll(async () => {
  await env?.close();
});

async function submissionsOf(invoiceId: string) {
  const res = await request(env.api).get(`/api/v1/invoices/${invoiceId}/submissions`).set(party.account.auth).expect(200);
  return res.body.data as {
    outcome: string;
    request_xml: string;
    response_xml: string | null;
    csv: string | null;
    certificate_mode: string;
    http_status: number | null;
  }[];
}

async function historyOf(invoiceId: string) {
  const res = await request(env.api).get(`/api/v1/invoices/${invoiceId}`).set(party.account.auth).expect(200);
  return res.body.data.status_history as { status: string; code: number | null; message: string | null }[];
}

test('a fresh invoice is accepted, with its CSV stored, and the stored request validates against the AEAT schemas', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const [id] = await env.register(party, taxpayer.id, 1);

  const [state] = await env.settled([id]);
  expect(state).toMatchObject({ status: 'accepted', code: null, sendAttempts: 1 });
  expect(state.csv).toMatch(/^A-[A-Z0-9]{14}$/);

  const [submission] = await submissionsOf(id);
  expect(submission).toMatchObject({ outcome: 'answered', http_status: 200, csv: state.csv, certificate_mode: 'taxpayer' });
  expect(await validateAgainstXsd(submission.request_xml, 'request')).toEqual({ valid: true, errors: [] });
  expect(await validateAgainstXsd(submission.response_xml!, 'response')).toEqual({ valid: true, errors: [] });
  // The very record that was hashed went out: the simulator holds it under the stored huella.
  const stored = (await env.db.db.execute<{ hash: string }>(sql`SELECT hash FROM invoices WHERE id = ${id}`)).rows[0];
  expect(env.sim.state.counters.registeredByNif[taxpayer.nif]).toEqual([expect.objectContaining({ hash: stored.hash, state: 'Correcto' })]);
  expect((await historyOf(id)).map((e) => e.status)).toEqual(['queued', 'sent', 'accepted']);
});

test('an admissible error gives accepted_with_warnings with its code; a blocking one gives rejected with its code', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const [good] = await env.register(party, taxpayer.id, 1);
  await env.settled([good]);

  // Recipient the census does not know: a blocking record error (1193).
  const [blocked] = await env.register(party, taxpayer.id, 1, { recipient: { name: 'Desconocido', nif: UNKNOWN_RECIPIENT } });
  // The authority's clock runs 10 minutes ahead of ours: the record arrives "late", admissible error 2004.
  env.simClockOffsetMs = 10 * 60_000;
  try {
    const [late] = await env.register(party, taxpayer.id, 1);
    const states = await env.settled([blocked, late]);
    expect(states[0]).toMatchObject({ status: 'rejected', code: 1193 });
    expect(states[0].message).toEqual(expect.any(String));
    expect(states[1]).toMatchObject({ status: 'accepted_with_warnings', code: 2004 });
    expect(states[1].csv).toMatch(/^A-/);
    expect(states[1].message).toContain('FechaHoraHusoGenRegistro');
  } finally {
    env.simClockOffsetMs = 0;
  }
});

test('a taxpayer whose certificate has expired ends in error with the reason, and nothing is sent', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  await env.expireCertificate(taxpayer);
  const ids = await env.register(party, taxpayer.id, 2);

  const states = await env.settled(ids);
  for (const s of states) expect(s).toMatchObject({ status: 'error', sendAttempts: 0, nextAttemptAt: null });
  expect(states[0].lastError).toMatch(/taxpayer's certificate .* expired on/);
  // The second either failed the same way or waits behind the first: it never overtakes it.
  expect(states[1].lastError).toMatch(/taxpayer's certificate .* expired on|waiting for the earlier record/);
  const shown = await request(env.api).get(`/api/v1/invoices/${ids[0]}`).set(party.account.auth).expect(200);
  expect(shown.body.data.authority_message).toMatch(/^The taxpayer's certificate has expired\. Upload a valid certificate/);
  expect(await submissionsOf(ids[0])).toEqual([]);
  expect(env.sim.state.counters.registeredByNif[taxpayer.nif]).toBeUndefined();
  expect((await historyOf(ids[0])).map((e) => e.status)).toEqual(['queued', 'error']);
});
