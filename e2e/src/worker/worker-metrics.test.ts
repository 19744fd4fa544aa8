import request from 'supertest';
import { Scrape } from '@vf/metrics/testing';
import { waitUntil } from '@vf/core/testing';
import { freePort } from '@vf/private-servers';
import { invoiceBody } from '@vf/api/testing';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

const admin = { user: 'operator', password: 'a-long-admin-password' };
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const UNKNOWN_RECIPIENT = '12345678Z';

// One simulator, database and in-process worker whose metrics listener is scraped over HTTP like Prometheus would.
let env: WorkerTestEnv;
let party: Party;
let metricsUrl: string;

beforeAll(async () => {
  const port = await freePort();
  env = await WorkerTestEnv.create({
    unknownNifs: [UNKNOWN_RECIPIENT],
    env: { ADMIN_USER: admin.user, ADMIN_PASSWORD: admin.password, WORKER_PORT: String(port) },
  });
  party = await env.party();
  await env.startWorker();
  metricsUrl = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await env?.close();
});

async function scrape(): Promise<Scrape> {
  const res = await request(metricsUrl).get('/metrics').set('Authorization', basic(admin.user, admin.password)).expect(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return new Scrape(res.text);
}

/** A send is counted just after its outcome commits, so the invoice can look settled a moment before the counter moves. */
async function scrapeWhen(counted: (s: Scrape) => boolean): Promise<Scrape> {
  return waitUntil(async () => {
    const s = await scrape();
    return counted(s) && s;
  }, 'the sends to be counted');
}

test("the worker's listener answers the operator only", async () => {
  for (const header of [undefined, basic(admin.user, 'wrong'), basic('someone', admin.password)]) {
    const req = request(metricsUrl).get('/metrics');
    const res = await (header ? req.set('Authorization', header) : req).expect(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm="metrics"/);
    expect(res.text).not.toContain('vf_');
  }
  await request(metricsUrl).get('/other').set('Authorization', basic(admin.user, admin.password)).expect(404);
  const s = await scrape();
  expect(s.type('process_cpu_user_seconds_total')).toBe('COUNTER');
  expect(s.type('vf_sends_total')).toBe('COUNTER');
  expect(s.type('vf_webhook_deliveries_total')).toBe('COUNTER');
});

test('sends count by outcome, records by status and authority code, and each send is timed', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const before = await scrape();
  const [good] = await env.register(party, taxpayer.id, 1);
  await env.settled([good]);
  const [bad] = await env.register(party, taxpayer.id, 1, { recipient: { name: 'Desconocido', nif: UNKNOWN_RECIPIENT } });
  const [state] = await env.settled([bad]);
  expect(state).toMatchObject({ status: 'rejected', code: 1193 });
  const after = await scrapeWhen((s) => s.value('vf_sent_records_total') - before.value('vf_sent_records_total') >= 2);

  const moved = (name: string, labels: Record<string, string>) => after.value(name, labels) - before.value(name, labels);
  expect(moved('vf_sends_total', { outcome: 'answered' })).toBe(2);
  expect(moved('vf_sent_records_total', { status: 'accepted' })).toBe(1);
  expect(moved('vf_sent_records_total', { status: 'rejected', code: '1193' })).toBe(1);
  expect(
    after.count('vf_send_duration_seconds', { outcome: 'answered' }) - before.count('vf_send_duration_seconds', { outcome: 'answered' }),
  ).toBe(2);
  expect(after.value('vf_send_duration_seconds_sum', { outcome: 'answered' })).toBeGreaterThan(
    before.value('vf_send_duration_seconds_sum', { outcome: 'answered' }),
  );
});

test('a failed send counts as a server fault with its code, and the sender waiting out its backoff is a flow-control wait', async () => {
  // A taxpayer that has had an answer: the authority's short waiting time is known, so the retry comes soon.
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  await env.settled(await env.register(party, taxpayer.id, 1));
  const before = await scrape();
  env.sim.inject({ kind: 'soapFault', code: 20009, next: 1 });
  const [id] = await env.register(party, taxpayer.id, 1);
  const [state] = await env.settled([id]);
  expect(state).toMatchObject({ status: 'accepted', sendAttempts: 2 });
  const after = await scrapeWhen(
    (s) => s.value('vf_sends_total', { outcome: 'answered' }) > before.value('vf_sends_total', { outcome: 'answered' }),
  );

  expect(
    after.value('vf_sends_total', { outcome: 'server_fault', code: '20009' }) -
      before.value('vf_sends_total', { outcome: 'server_fault', code: '20009' }),
  ).toBe(1);
  expect(after.value('vf_sends_total', { outcome: 'answered' }) - before.value('vf_sends_total', { outcome: 'answered' })).toBe(1);
  expect(
    after.count('vf_flow_control_wait_seconds', { reason: 'backoff' }) -
      before.count('vf_flow_control_wait_seconds', { reason: 'backoff' }),
  ).toBe(1);
});

test('a sandbox scenario’s messages count apart from the authority’s, whatever they rehearse', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const before = await scrape();
  const res = await request(env.api)
    .post('/api/v1/invoices')
    .set(party.account.auth)
    .set('Sandbox-Scenario', 'message_refused:4104')
    .send(invoiceBody(taxpayer.id, party.systemId))
    .expect(201);
  const [state] = await env.settled([res.body.data.id]);
  expect(state).toMatchObject({ status: 'error', code: 4104 });
  const after = await scrapeWhen(
    (s) =>
      s.value('vf_scenario_sends_total', { outcome: 'message_rejected' }) >
      before.value('vf_scenario_sends_total', { outcome: 'message_rejected' }),
  );
  expect(after.value('vf_sends_total') - before.value('vf_sends_total')).toBe(0);
  expect(after.value('vf_sent_records_total') - before.value('vf_sent_records_total')).toBe(0);
});
