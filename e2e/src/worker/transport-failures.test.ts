import request from 'supertest';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

let env: WorkerTestEnv;
let party: Party;
beforeAll(async () => {
  env = await WorkerTestEnv.create();
  party = await env.party();
  await env.startWorker();
});
afterAll(async () => {
  await env?.close();
});

interface SubmissionView {
  outcome: string;
  incident: boolean;
  http_status: number | null;
  fault_code: string | null;
  error_message: string | null;
  request_xml: string;
}

async function submissionsOf(invoiceId: string): Promise<SubmissionView[]> {
  const res = await request(env.api).get(`/api/v1/invoices/${invoiceId}/submissions`).set(party.account.auth).expect(200);
  return (res.body.data as (SubmissionView & { started_at: string })[]).sort((a, b) => a.started_at.localeCompare(b.started_at));
}

async function historyOf(invoiceId: string): Promise<{ status: string; message: string | null }[]> {
  const res = await request(env.api).get(`/api/v1/invoices/${invoiceId}`).set(party.account.auth).expect(200);
  return res.body.data.status_history;
}

/** A taxpayer that has already had an answer, so the authority's short waiting time is known. */
async function establishedTaxpayer(): Promise<{ id: string; nif: string }> {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  await env.settled(await env.register(party, taxpayer.id, 1));
  return taxpayer;
}

test('a reset connection, a 503, a 500 and a server fault are retried with backoff, unchanged, and the invoice ends accepted', async () => {
  const taxpayer = await establishedTaxpayer();
  // On the sends only: the Consulta the worker asks after a send that may have been processed is not in question here.
  const sends = { operation: 'RegFactu', next: 1 } as const;
  env.sim.inject([
    { kind: 'connectionReset', ...sends },
    { kind: 'http503', ...sends },
    { kind: 'http500', ...sends },
    { kind: 'soapFault', code: 20009, ...sends },
  ]);
  const [id] = await env.register(party, taxpayer.id, 1);

  const [state] = await env.settled([id]);
  expect(state).toMatchObject({ status: 'accepted', sendAttempts: 5 });

  const submissions = await submissionsOf(id);
  expect(submissions.map((s) => [s.outcome, s.http_status])).toEqual([
    ['transport_error', null],
    ['transport_error', 503],
    ['transport_error', 500],
    ['fault', 500],
    ['answered', 200],
  ]);
  expect(submissions[0].error_message).toMatch(/^transport error: .*(ECONNRESET|socket hang up)/);
  expect(submissions[3].fault_code).toBe('20009');
  // Resent unchanged: the same record every time, flagged as an incident once delayed.
  const record = (xml: string) => xml.slice(xml.indexOf('<sum:RegistroFactura>'));
  expect(new Set(submissions.map((s) => record(s.request_xml))).size).toBe(1);
  expect(submissions.map((s) => s.incident)).toEqual([false, true, true, true, true]);
  expect(submissions[1].request_xml).toContain('<sum1:Incidencia>S</sum1:Incidencia>');

  const history = await historyOf(id);
  expect(history.map((e) => e.status)).toEqual([
    'queued',
    'sent',
    'queued',
    'sent',
    'queued',
    'sent',
    'queued',
    'sent',
    'queued',
    'sent',
    'accepted',
  ]);
  expect(history[2].message).toMatch(/^transport error: .*; next attempt at \d{4}-\d{2}-\d{2}T/);
  expect(env.sim.state.counters.registeredByNif[taxpayer.nif]).toHaveLength(2);
});

test('registered but reply lost: the Consulta service shows our huella before anything is resent, and the invoice ends accepted, sent once', async () => {
  const taxpayer = await establishedTaxpayer();
  const duplicatesBefore = env.sim.state.counters.duplicates;
  env.sim.inject({ kind: 'replyLost', next: 1 });
  const [id] = await env.register(party, taxpayer.id, 1);

  const [state] = await env.settled([id]);
  expect(state).toMatchObject({ status: 'accepted', sendAttempts: 1, code: null });
  expect(env.sim.state.counters.registeredByNif[taxpayer.nif]).toHaveLength(2);
  expect(env.sim.state.counters.duplicates).toBe(duplicatesBefore);
  const submissions = await submissionsOf(id);
  expect(submissions.map((s) => s.outcome)).toEqual(['transport_error']);
  const history = await historyOf(id);
  expect(history[history.length - 1]).toMatchObject({
    status: 'accepted',
    message: expect.stringContaining('the authority holds this very record (same huella'),
  });
});
