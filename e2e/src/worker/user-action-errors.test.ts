import request from 'supertest';
import { sql } from 'drizzle-orm';
import type { WorkerRuntime } from '@vf/worker';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

let env: WorkerTestEnv;
let party: Party;

beforeAll(async () => {
  env = await WorkerTestEnv.create();
  party = await env.party();
});
afterAll(async () => {
  await env?.close();
});

async function view(id: string) {
  return (await request(env.api).get(`/api/v1/invoices/${id}`).set(party.account.auth).expect(200)).body.data;
}

async function chainLength(taxpayerId: string): Promise<number> {
  const r = await env.db.db.execute<{ n: string | number }>(sql`SELECT count(*) AS n FROM invoices WHERE taxpayer_id = ${taxpayerId}`);
  return Number(r.rows[0].n);
}

describe('with a worker whose platform certificate is a social collaborator', () => {
  let worker: WorkerRuntime;
  beforeAll(async () => {
    worker = await env.startWorker();
  });
  afterAll(async () => {
    await worker.close();
  });

  test('a certificate the authority refuses ends in error, never rejected; replacing it brings every record to accepted without a new chain record', async () => {
    // A taxpayer whose records went through, until its certificate is replaced by someone else's.
    const taxpayer = await env.taxpayer(party, { certificate: 'own' });
    const [established] = await env.register(party, taxpayer.id, 1);
    await env.reach([established], ['accepted']);
    await request(env.api)
      .put(`/api/v1/taxpayers/${taxpayer.id}`)
      .set(party.account.auth)
      .send(env.certificateBody(env.freshNif()))
      .expect(200);
    const first = await env.register(party, taxpayer.id, 3);
    const refused = await env.reach(first, ['error']);
    // The first message was refused with 4112; whatever was not in it waits behind it. Nothing is rejected.
    expect(refused[0].code).toBe(4112);
    for (const s of refused) expect(s.nextAttemptAt).toBeNull();
    const shown = await view(first[0]);
    expect(shown).toMatchObject({ authority_status: 'error', authority_code: 4112, next_attempt_at: null });
    expect(shown.authority_message).toMatch(
      /^The authority does not accept this certificate for this taxpayer's invoices.*Upload a certificate/,
    );

    // A later record never overtakes the ones in error: it waits, and says so.
    const [later] = await env.register(party, taxpayer.id, 1);
    await env.reach([later], ['error']);
    expect((await view(later)).authority_message).toMatch(/^An earlier record of this taxpayer needs attention/);
    expect(env.sim.state.counters.registeredByNif[taxpayer.nif]).toHaveLength(1);

    const ids = [...first, later];
    const hashes = (await env.states(ids)).map((s) => s.hash);
    await request(env.api)
      .put(`/api/v1/taxpayers/${taxpayer.id}`)
      .set(party.account.auth)
      .send(env.certificateBody(taxpayer.nif))
      .expect(200);

    const accepted = await env.reach(ids, ['accepted']);
    expect(accepted.map((s) => s.hash)).toEqual(hashes);
    expect(await chainLength(taxpayer.id)).toBe(5);
    expect(env.sim.state.counters.registeredByNif[taxpayer.nif].map((r) => r.hash).slice(1)).toEqual(hashes);
    const history = (await view(first[0])).status_history.map((e: { status: string; message: string }) => [e.status, e.message]);
    expect(history).toContainEqual(['queued', "the taxpayer's certificate or data changed: sent again"]);
  });
});

test('resend: 409 not_resendable unless the invoice is in error; 202 sends the same record again, and it ends accepted', async () => {
  const platformEnv = { PLATFORM_CERT_PATH: env.env.PLATFORM_CERT_PATH, PLATFORM_CERT_PASSWORD: env.env.PLATFORM_CERT_PASSWORD };
  // A social-collaborator taxpayer (no certificate of its own) whose first record went through.
  const taxpayer = await env.taxpayer(party, { certificate: 'none' });
  let worker = await env.startWorker(platformEnv);
  const [accepted] = await env.register(party, taxpayer.id, 1);
  await env.reach([accepted], ['accepted']);
  await worker.close();

  // Then the platform's certificate is replaced by one whose holder is no social collaborator: the authority refuses it.
  worker = await env.startWorker(env.platformCertificateEnv(env.freshNif()));
  const [id] = await env.register(party, taxpayer.id, 1);
  const [before] = await env.reach([id], ['error']);
  expect(before).toMatchObject({ code: 4112, nextAttemptAt: null });
  await worker.close();

  const conflict = await request(env.api).post(`/api/v1/invoices/${accepted}/resend`).set(party.account.auth).expect(409);
  expect(conflict.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(conflict.body).toMatchObject({ code: 'not_resendable', status: 409 });
  await request(env.api).post('/api/v1/invoices/00000000-0000-4000-8000-000000000000/resend').set(party.account.auth).expect(404);

  // The platform's certificate is fixed outside the taxpayer's data: a resend brings the record back.
  worker = await env.startWorker(platformEnv);
  const resent = await request(env.api).post(`/api/v1/invoices/${id}/resend`).set(party.account.auth).expect(202);
  expect(resent.body.data).toMatchObject({ id, authority_status: 'queued', resumed_records: 1 });
  const [after] = await env.reach([id], ['accepted']);
  expect(after.hash).toBe(before.hash);
  expect(await chainLength(taxpayer.id)).toBe(2);
  expect(env.sim.state.counters.registeredByNif[taxpayer.nif].map((r) => r.hash)).toHaveLength(2);
  expect((await view(id)).status_history.map((e: { status: string; message: string }) => [e.status, e.message])).toContainEqual([
    'queued',
    'resent on request',
  ]);
  await worker.close();
});
