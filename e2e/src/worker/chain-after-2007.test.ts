import request from 'supertest';
import { waitUntil } from '@vf/core/testing';
import { WorkerTestEnv } from '../support/worker-test-env';
import { obliterateWebhookQueue, WebhookReceiver } from '../support/webhook-receiver';
import { historyEvents, subscribe } from '../support/webhook-subscriptions';

// In the authority's test environment, where many developers share the test NIFs, a chain's first record is often
// answered 2007 (AceptadoConErrores: it already holds records of this taxpayer and system). The authority stored it;
// nothing forbids the next records, so the chain goes on.
let env: WorkerTestEnv;
let receiver: WebhookReceiver;
beforeAll(async () => {
  env = await WorkerTestEnv.create({ env: { WEBHOOK_SWEEP_INTERVAL_MS: '200' } });
  receiver = await WebhookReceiver.start();
  await env.startWorker();
});
afterAll(async () => {
  await receiver?.close();
  await env?.close();
  if (env) await obliterateWebhookQueue(env.env.REDIS_URL, env.env.QUEUE_PREFIX);
});

test('a chain whose first record is stored with 2007 goes on: later records are sent and accepted, webhooks as for any status', async () => {
  const party = await env.party();
  await subscribe(env.api, party, receiver, ['invoice.registered', 'invoice.status_changed', 'invoice.accepted', 'invoice.error']);
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  env.sim.inject({ kind: 'recordCode', code: 2007, nif: taxpayer.nif, next: 1 });

  const [first] = await env.register(party, taxpayer.id, 1);
  expect((await env.settled([first]))[0]).toMatchObject({ status: 'accepted_with_warnings', code: 2007 });
  // Registered after the answer, so they go in messages of their own, behind the 2007.
  const later = await env.register(party, taxpayer.id, 2);
  const states = await env.settled(later);
  expect(states.map((s) => s.status)).toEqual(['accepted', 'accepted']);
  expect(env.sim.state.counters.registeredByNif[taxpayer.nif]).toHaveLength(3);

  const view = (await request(env.api).get(`/api/v1/invoices/${first}`).set(party.account.auth).expect(200)).body.data;
  expect(view).toMatchObject({ authority_status: 'accepted_with_warnings', authority_code: 2007, next_attempt_at: null });

  const ids = [first, ...later];
  const expected = await Promise.all(ids.map((id) => historyEvents(env.api, party, id)));
  expect(expected[0].slice(-2)).toEqual([
    { type: 'invoice.status_changed', status: 'accepted_with_warnings' },
    { type: 'invoice.accepted', status: 'accepted_with_warnings' },
  ]);
  const received = await waitUntil(
    async () => receiver.accepted().length >= expected.flat().length && receiver.accepted(),
    `${expected.flat().length} webhook events`,
    60_000,
  );
  ids.forEach((id, i) => {
    const got = received.filter((r) => r.data.invoice_id === id);
    expect(got.map((r) => ({ type: r.type, status: r.data.authority_status }))).toEqual(expected[i]);
  });
  expect(received.find((r) => r.data.invoice_id === first && r.type === 'invoice.accepted')?.data.authority_code).toBe(2007);
});
