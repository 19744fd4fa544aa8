import { sql } from 'drizzle-orm';
import request from 'supertest';
import { webhookDeliveriesTotal } from '@vf/metrics';
import { waitUntil } from '@vf/core/testing';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';
import { obliterateWebhookQueue, WebhookReceiver } from '../support/webhook-receiver';
import { historyEvents, subscribe as subscribeThrough } from '../support/webhook-subscriptions';

// Retries a few hundred milliseconds apart instead of Standard Webhooks' 5 s ... 10 h.
const RETRY_DELAYS = [200, 300, 300, 300, 300];

let env: WorkerTestEnv;
const receivers: WebhookReceiver[] = [];
beforeAll(async () => {
  env = await WorkerTestEnv.create({
    env: { WEBHOOK_RETRY_DELAYS_MS: RETRY_DELAYS.join(','), WEBHOOK_SWEEP_INTERVAL_MS: '200', WEBHOOK_TIMEOUT_MS: '5000' },
  });
  await env.startWorker();
});
afterAll(async () => {
  for (const r of receivers) await r.close();
  await env?.close();
  if (env) await obliterateWebhookQueue(env.env.REDIS_URL, env.env.QUEUE_PREFIX);
});

async function receiver(): Promise<WebhookReceiver> {
  const r = await WebhookReceiver.start();
  receivers.push(r);
  return r;
}

const subscribe = (party: Party, r: WebhookReceiver, events: string[]) => subscribeThrough(env.api, party, r, events);
const expectedEvents = (party: Party, invoiceId: string) => historyEvents(env.api, party, invoiceId);

async function deliveries(party: Party, webhookId: string) {
  const res = await request(env.api).get(`/api/v1/webhooks/${webhookId}/deliveries`).set(party.account.auth).expect(200);
  return res.body.data as {
    id: string;
    event_type: string;
    invoice_id: string | null;
    status: string;
    attempts: number;
    last_response_code: number | null;
    next_attempt_at: string | null;
  }[];
}

const settledDeliveries = (party: Party, webhookId: string, count: number) =>
  waitUntil(
    async () => {
      const list = await deliveries(party, webhookId);
      return list.length === count && list.every((d) => d.status !== 'pending') && list;
    },
    `${count} settled deliveries`,
    60_000,
  );

test('every committed change of an invoice reaches a subscribed receiver signed, in order; each endpoint gets only its events', async () => {
  const party = await env.party();
  const all = await receiver();
  const acceptedOnly = await receiver();
  const allId = await subscribe(party, all, [
    'invoice.registered',
    'invoice.status_changed',
    'invoice.accepted',
    'invoice.rejected',
    'invoice.error',
  ]);
  const acceptedId = await subscribe(party, acceptedOnly, ['invoice.accepted']);
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const ids = await env.register(party, taxpayer.id, 2);
  await env.reach(ids, ['accepted']);

  const expected = await Promise.all(ids.map((id) => expectedEvents(party, id)));
  expect(expected[0].map((e) => e.type)).toEqual(
    expect.arrayContaining(['invoice.registered', 'invoice.status_changed', 'invoice.accepted']),
  );
  await settledDeliveries(party, allId, expected.flat().length);
  await settledDeliveries(party, acceptedId, 2);

  expect(all.received.every((r) => r.verified)).toBe(true);
  ids.forEach((id, i) => {
    const got = all.accepted().filter((r) => r.data.invoice_id === id);
    expect(got.map((r) => ({ type: r.type, status: r.data.authority_status }))).toEqual(expected[i]);
  });
  expect(all.accepted()[0].data).toMatchObject({
    invoice_number: expect.any(String),
    invoice_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    taxpayer_id: taxpayer.id,
    issuer_nif: taxpayer.nif,
    record_type: 'registration',
  });
  expect(
    acceptedOnly
      .accepted()
      .map((r) => [r.type, r.data.invoice_id])
      .sort(),
  ).toEqual(ids.map((id) => ['invoice.accepted', id]).sort());
});

test('a failing receiver is retried until it recovers, and the invoice’s later events wait for the earlier one', async () => {
  const party = await env.party();
  const r = await receiver();
  let open = false;
  r.behaviour = () => (open ? 200 : 503);
  const webhookId = await subscribe(party, r, ['invoice.registered', 'invoice.status_changed', 'invoice.accepted']);
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const [id] = await env.register(party, taxpayer.id, 1);
  await env.reach([id], ['accepted']);
  const expected = await expectedEvents(party, id);
  // Every later event exists and the first has failed twice: the receiver has seen nothing but the first.
  await waitUntil(async () => {
    const list = await deliveries(party, webhookId);
    return list.length === expected.length && list.some((d) => d.event_type === 'invoice.registered' && d.attempts >= 2);
  }, 'the first event to fail twice');
  expect(new Set(r.received.map((m) => m.type))).toEqual(new Set(['invoice.registered']));
  open = true;

  const settled = await settledDeliveries(party, webhookId, expected.length);
  expect(settled.every((d) => d.status === 'delivered' && d.last_response_code === 200)).toBe(true);
  const first = settled.find((d) => d.event_type === 'invoice.registered')!;
  expect(first.attempts).toBeGreaterThanOrEqual(3);
  expect(settled.filter((d) => d !== first).every((d) => d.attempts === 1)).toBe(true);
  // One webhook-id on every attempt of a message; a receiver drops duplicates by it.
  expect(new Set(r.received.filter((m) => m.type === 'invoice.registered').map((m) => m.id))).toEqual(new Set([first.id]));
  expect(r.accepted().map((m) => ({ type: m.type, status: m.data.authority_status }))).toEqual(expected);
});

async function deliveriesCounted(outcome: string): Promise<number> {
  return (await webhookDeliveriesTotal.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}

test('a delivery is given up after its last retry, and the invoice’s next events go on', async () => {
  const before = { gaveUp: await deliveriesCounted('gave_up'), failed: await deliveriesCounted('failed') };
  const party = await env.party();
  const r = await receiver();
  r.behaviour = (m) => (m.type === 'invoice.registered' ? 500 : 204);
  const webhookId = await subscribe(party, r, ['invoice.registered', 'invoice.accepted']);
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const [id] = await env.register(party, taxpayer.id, 1);
  await env.reach([id], ['accepted']);
  const settled = await settledDeliveries(party, webhookId, 2);
  expect(settled.find((d) => d.event_type === 'invoice.registered')).toMatchObject({
    status: 'failed',
    attempts: RETRY_DELAYS.length + 1,
    last_response_code: 500,
    next_attempt_at: null,
  });
  expect(settled.find((d) => d.event_type === 'invoice.accepted')).toMatchObject({
    status: 'delivered',
    attempts: 1,
    last_response_code: 204,
  });
  // Operators see it in vf_webhook_deliveries_total.
  expect(await deliveriesCounted('gave_up')).toBe(before.gaveUp + 1);
  expect(await deliveriesCounted('failed')).toBeGreaterThanOrEqual(before.failed + RETRY_DELAYS.length);
});

test('POST /webhooks/{id}/test delivers a signed webhook.test event', async () => {
  const party = await env.party();
  const r = await receiver();
  const webhookId = await subscribe(party, r, ['invoice.error']);
  const queued = await request(env.api).post(`/api/v1/webhooks/${webhookId}/test`).set(party.account.auth).expect(202);
  const [settled] = await settledDeliveries(party, webhookId, 1);
  expect(settled).toMatchObject({
    id: queued.body.data.id,
    event_type: 'webhook.test',
    status: 'delivered',
    attempts: 1,
    last_response_code: 204,
  });
  expect(r.accepted()).toEqual([
    expect.objectContaining({
      id: queued.body.data.id,
      type: 'webhook.test',
      verified: true,
      data: expect.objectContaining({ webhook_id: webhookId }),
    }),
  ]);
});

test('deliveries survive a Redis flush: they live in PostgreSQL and the sweep enqueues them again', async () => {
  const party = await env.party();
  const r = await receiver();
  let open = false;
  r.behaviour = () => (open ? 204 : 503);
  const webhookId = await subscribe(party, r, ['invoice.accepted']);
  await request(env.api).post(`/api/v1/webhooks/${webhookId}/test`).set(party.account.auth).expect(202);
  await waitUntil(async () => (await deliveries(party, webhookId))[0].attempts >= 1, 'a first failed attempt');
  const { rows } = await env.db.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`);
  expect(rows[0].n).toBeGreaterThanOrEqual(1);
  // The retry's delayed job is lost with the queue's contents.
  await obliterateWebhookQueue(env.env.REDIS_URL, env.env.QUEUE_PREFIX);
  open = true;
  const [settled] = await settledDeliveries(party, webhookId, 1);
  expect(settled).toMatchObject({ status: 'delivered', last_response_code: 204 });
});

test('a cancellation reaches the receiver as invoice.cancelled for the same invoice, after the invoice’s earlier events', async () => {
  const party = await env.party();
  const r = await receiver();
  const webhookId = await subscribe(party, r, ['invoice.registered', 'invoice.accepted', 'invoice.cancelled']);
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const [id] = await env.register(party, taxpayer.id, 1);
  await env.reach([id], ['accepted']);
  const cancel = () =>
    request(env.api)
      .post(`/api/v1/invoices/${id}/cancel`)
      .set(party.account.auth)
      .set('Idempotency-Key', `cancel-${id}`)
      .send({ reason: 'prueba' });
  const cancelled = await cancel().expect(201);
  // The same key gives the same cancellation back, not a 409 already_cancelled.
  const replay = await cancel().expect(201);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(replay.body).toEqual(cancelled.body);

  // The cancellation's own acceptance is an invoice.accepted of the cancellation record.
  await settledDeliveries(party, webhookId, 4);
  const got = r.accepted().map((m) => [m.type, m.data.invoice_id, m.data.record_type]);
  expect(got).toEqual([
    ['invoice.registered', id, 'registration'],
    ['invoice.accepted', id, 'registration'],
    ['invoice.cancelled', id, 'cancellation'],
    ['invoice.accepted', id, 'cancellation'],
  ]);
  const cancellation = r.accepted().find((m) => m.type === 'invoice.cancelled')!;
  expect(cancellation.data.record_id).not.toBe(id);
});

test('the sweep deletes settled deliveries older than WEBHOOK_DELIVERY_RETENTION_DAYS (30 by default); pending and recent ones stay', async () => {
  const party = await env.party();
  const r = await receiver();
  const webhookId = await subscribe(party, r, ['invoice.error']);
  for (let i = 0; i < 3; i++) await request(env.api).post(`/api/v1/webhooks/${webhookId}/test`).set(party.account.auth).expect(202);
  const [recent, oldDelivered, oldFailed] = (await settledDeliveries(party, webhookId, 3)).map((d) => d.id);
  await env.db.db.execute(
    sql`UPDATE webhook_deliveries SET created_at = now() - interval '31 days' WHERE id IN (${oldDelivered}, ${oldFailed})`,
  );
  await env.db.db.execute(sql`UPDATE webhook_deliveries SET status = 'failed' WHERE id = ${oldFailed}`);
  // Still being retried a month on (a retry schedule longer than the retention): not deleted under the worker's feet.
  const { rows } = await env.db.db.execute<{ id: string }>(sql`
    INSERT INTO webhook_deliveries (endpoint_id, event_type, payload, created_at, next_attempt_at)
    VALUES (${webhookId}, 'webhook.test', '{}', now() - interval '31 days', now() + interval '1 day') RETURNING id`);
  const remaining = await waitUntil(
    async () => {
      const ids = (await deliveries(party, webhookId)).map((d) => d.id);
      return !ids.includes(oldDelivered) && !ids.includes(oldFailed) && ids;
    },
    'old settled deliveries purged',
    30_000,
  );
  expect(remaining.sort()).toEqual([recent, rows[0].id].sort());
});
