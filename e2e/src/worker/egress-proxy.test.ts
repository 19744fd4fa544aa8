import request from 'supertest';
import { waitUntil } from '@vf/core/testing';
import { PrivateTinyproxy } from '@vf/private-servers';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

let env: WorkerTestEnv;
let party: Party;
let proxy: PrivateTinyproxy;
beforeAll(async () => {
  env = await WorkerTestEnv.create();
  party = await env.party();
  proxy = await PrivateTinyproxy.start({ user: 'egress', password: 's3cret-proxy' });
  // Nothing but the proxy's own host is exempt: the simulator, on 127.0.0.1, is reached only through the tunnel.
  await env.startWorker({ HTTPS_PROXY: proxy.url, NO_PROXY: 'localhost' });
});
afterAll(async () => {
  await env?.close();
  await proxy?.destroy();
});

interface SubmissionView {
  outcome: string;
  error_message: string | null;
}

async function submissionsOf(invoiceId: string): Promise<SubmissionView[]> {
  const res = await request(env.api).get(`/api/v1/invoices/${invoiceId}/submissions`).set(party.account.auth).expect(200);
  return res.body.data;
}

test('the worker reaches the authority through the egress proxy, and a proxy that went away is a send retried until it is back', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const simulator = new URL(env.sim.url);

  const [first] = await env.register(party, taxpayer.id, 1);
  const [accepted] = await env.settled([first]);
  expect(accepted).toMatchObject({ status: 'accepted' });
  // The tunnel the record went through, opened with the proxy's credentials (it refuses any request without them).
  expect(proxy.log()).toContain(`CONNECT ${simulator.hostname}:${simulator.port} HTTP/1.1`);

  await proxy.stop();
  const [second] = await env.register(party, taxpayer.id, 1);
  // A tunnel kept open from the first send may break first (a reset); the next connection finds no proxy at all.
  const failed = await waitUntil(async () => {
    const submissions = await submissionsOf(second);
    return submissions.some((s) => /ECONNREFUSED/.test(s.error_message ?? '')) && submissions;
  }, 'a send that found no proxy');
  expect(failed.map((s) => [s.outcome, s.error_message])).toEqual(
    failed.map(() => ['transport_error', expect.stringMatching(/^transport error: /)]),
  );
  expect(failed.map((s) => s.error_message).join('\n')).not.toContain('s3cret-proxy');
  expect((await env.states([second]))[0].status).toMatch(/^(queued|sent)$/);

  await proxy.resume();
  expect(await env.settled([second])).toEqual([expect.objectContaining({ status: 'accepted' })]);
  expect((await submissionsOf(second)).map((s) => s.outcome)).toContain('answered');
});
