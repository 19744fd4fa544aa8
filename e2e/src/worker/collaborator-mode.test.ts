import request from 'supertest';
import { PLATFORM_NIF, WorkerTestEnv, type Party } from '../support/worker-test-env';

let env: WorkerTestEnv;
let party: Party;

beforeAll(async () => {
  env = await WorkerTestEnv.create();
  party = await env.party();
});
afterAll(async () => {
  await env?.close();
});

async function submissionsOf(invoiceId: string) {
  const res = await request(env.api).get(`/api/v1/invoices/${invoiceId}/submissions`).set(party.account.auth).expect(200);
  return res.body.data as { outcome: string; certificate_mode: string; fault_code: string | null; response_xml: string | null }[];
}

test('a taxpayer without a certificate is sent with the platform certificate (social collaborator)', async () => {
  const worker = await env.startWorker();
  try {
    const taxpayer = await env.taxpayer(party, { certificate: 'none' });
    const [id] = await env.register(party, taxpayer.id, 1);

    expect((await env.settled([id]))[0]).toMatchObject({ status: 'accepted' });
    const [submission] = await submissionsOf(id);
    expect(submission.certificate_mode).toBe('platform');
    // The authority saw the platform as presenter, acting for the taxpayer.
    expect(submission.response_xml).toContain(`NIFPresentador>${PLATFORM_NIF}<`);
    expect(env.sim.state.counters.registeredByNif[taxpayer.nif]).toHaveLength(1);
  } finally {
    await worker.close();
  }
});

test('a platform that is not a social collaborator gets 4112, surfaced as error with the authority text', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'none' });
  // Both registered before the worker starts, so they travel in one message (a fault carries no waiting time).
  const ids = await env.register(party, taxpayer.id, 2);
  const worker = await env.startWorker(env.platformCertificateEnv('A39200019'));
  try {
    const states = await env.settled(ids);
    for (const s of states) {
      expect(s).toMatchObject({ status: 'error', code: 4112 });
      expect(s.message).toContain('Codigo[4112]');
      expect(s.lastError).toContain('4112');
    }
    const [submission] = await submissionsOf(ids[0]);
    expect(submission).toMatchObject({ outcome: 'fault', certificate_mode: 'platform', fault_code: '4112' });
    expect(env.sim.state.counters.registeredByNif[taxpayer.nif]).toBeUndefined();
  } finally {
    await worker.close();
  }
});
