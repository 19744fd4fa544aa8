import request from 'supertest';
import { waitUntil } from '@vf/core/testing';
import { WorkerTestEnv } from '../support/worker-test-env';
import { obliterateWebhookQueue, WebhookReceiver } from '../support/webhook-receiver';

let env: WorkerTestEnv;
let receiver: WebhookReceiver;
beforeAll(async () => {
  // A receiver that never answers, a timeout far longer than the test, and every webhook slot taken by it.
  env = await WorkerTestEnv.create({ env: { WEBHOOK_TIMEOUT_MS: '600000', WEBHOOK_CONCURRENCY: '1', WEBHOOK_SWEEP_INTERVAL_MS: '200' } });
  receiver = await WebhookReceiver.start();
  receiver.behaviour = () => 'hang';
  await env.startWorker();
});
afterAll(async () => {
  // Dropping the hung connections ends the attempts, so the worker can stop.
  await receiver?.close();
  await env?.close();
  if (env) await obliterateWebhookQueue(env.env.REDIS_URL, env.env.QUEUE_PREFIX);
});

test('a receiver that never answers does not delay submissions to the authority', async () => {
  const party = await env.party();
  const res = await request(env.api)
    .post('/api/v1/webhooks')
    .set(party.account.auth)
    .send({ url: receiver.url, events: ['invoice.registered', 'invoice.status_changed', 'invoice.accepted'] })
    .expect(201);
  receiver.secret = res.body.data.secret;
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const first = await env.register(party, taxpayer.id, 1);
  await waitUntil(async () => receiver.received.length > 0 && true, 'the receiver to hold a request');
  const more = await env.register(party, taxpayer.id, 3);

  const states = await env.reach([...first, ...more], ['accepted']);
  expect(states).toHaveLength(4);
  // All that while the receiver held its first request: nothing else was answered.
  expect(receiver.received.map((r) => r.answered)).toEqual(['hung']);
  const deliveries = await request(env.api).get(`/api/v1/webhooks/${res.body.data.id}/deliveries`).set(party.account.auth).expect(200);
  expect(deliveries.body.data.every((d: { status: string }) => d.status === 'pending')).toBe(true);
});
