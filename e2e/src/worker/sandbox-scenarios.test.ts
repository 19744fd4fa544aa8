import request from 'supertest';
import { sql } from 'drizzle-orm';
import {
  expectedOutcome,
  formatSandboxScenario,
  SCENARIO_NAMES,
  SCENARIO_PARAMETERS,
  type SandboxScenario,
  type ScenarioName,
} from '@vf/core';
import { invoiceBody } from '@vf/api/testing';
import { waitUntil } from '@vf/core/testing';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';
import { obliterateWebhookQueue, WebhookReceiver } from '../support/webhook-receiver';
import { subscribe } from '../support/webhook-subscriptions';

// Every entry of the sandbox scenario catalogue, through the API, the worker and the simulator, each on a taxpayer of
// its own so the whole catalogue runs side by side. Real chains keep the authority's timings here (a minute between a
// failing chain's sends): what finishes within seconds does so by the scenario chains' own timing.

let env: WorkerTestEnv;
let receiver: WebhookReceiver;
beforeAll(async () => {
  env = await WorkerTestEnv.create({
    behaviour: { waitSeconds: 60 },
    env: {
      SENDER_RETRY_MIN_SECONDS: '60',
      SENDER_BACKOFF_BASE_MS: '2000',
      SENDER_BACKOFF_MAX_MS: '3600000',
      WORKER_CONCURRENCY: '16',
      WEBHOOK_SWEEP_INTERVAL_MS: '200',
      WEBHOOK_RETRY_DELAYS_MS: '200,300',
    },
  });
  await env.startWorker();
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await receiver?.close();
  await env?.close();
  if (env) await obliterateWebhookQueue(env.env.REDIS_URL, env.env.QUEUE_PREFIX);
});

/** The catalogue's entries: each scenario with its example parameter, and a retried code of each family. */
function catalogue(): SandboxScenario[] {
  const entries = SCENARIO_NAMES.map((name: ScenarioName): SandboxScenario => {
    const parameter = SCENARIO_PARAMETERS[name];
    if (!parameter) return { name };
    return parameter.kind === 'code' ? { name, code: parameter.example } : { name, seconds: parameter.example };
  });
  return [
    ...entries,
    { name: 'rejected', code: 1129 },
    { name: 'message_refused', code: 4110 },
    { name: 'rejected', code: 3000 },
    { name: 'message_refused', code: 4141 },
  ];
}

const EVENTS = ['invoice.registered', 'invoice.status_changed', 'invoice.accepted', 'invoice.rejected', 'invoice.error'];

async function send(party: Party, scenario: SandboxScenario) {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const res = await request(env.api)
    .post('/api/v1/invoices')
    .set(party.account.auth)
    .set('Sandbox-Scenario', formatSandboxScenario(scenario))
    .send(invoiceBody(taxpayer.id, party.systemId))
    .expect(201);
  return { scenario, id: res.body.data.id as string, nif: taxpayer.nif, taxpayerId: taxpayer.id };
}

/** The event types delivered for the invoice, in the order each first came. */
function deliveredTypes(invoiceId: string): string[] {
  return [
    ...new Set(
      receiver
        .accepted()
        .filter((r) => r.data.invoice_id === invoiceId)
        .map((r) => r.type),
    ),
  ];
}

test('each scenario of the catalogue ends as the catalogue says: status, code, sends and webhooks, never at the authority', async () => {
  const party = await env.party();
  await subscribe(env.api, party, receiver, EVENTS);
  const sent = await Promise.all(catalogue().map((scenario) => send(party, scenario)));
  // A real invoice of the taxpayer whose scenario takes the authority down: its own sandbox chain is not affected.
  const down = sent.find((s) => s.scenario.name === 'authority_down')!;
  const real = await request(env.api)
    .post('/api/v1/invoices')
    .set(party.account.auth)
    .send(invoiceBody(down.taxpayerId, party.systemId))
    .expect(201);
  await env.settled([...sent.map((s) => s.id), real.body.data.id], 45_000);

  for (const { scenario, id } of sent) {
    const expected = expectedOutcome(scenario);
    const what = formatSandboxScenario(scenario);
    const detail = (await request(env.api).get(`/api/v1/invoices/${id}`).set(party.account.auth).expect(200)).body.data;
    expect([what, detail.authority_status, detail.authority_code, detail.sandbox_scenario]).toEqual([
      what,
      expected.status,
      expected.code,
      what,
    ]);
    const sends = (await request(env.api).get(`/api/v1/invoices/${id}/submissions`).set(party.account.auth).expect(200)).body.data.length;
    expect([what, sends >= expected.sends.min && sends <= (expected.sends.max ?? Infinity)]).toEqual([what, true]);
    await waitUntil(async () => deliveredTypes(id).length === expected.webhooks.length, `${what}: its webhooks`, 15_000);
    expect([what, deliveredTypes(id)]).toEqual([what, expected.webhooks]);
  }

  // Scenario records asked only the simulator's scenario service; the real one its sandbox service, and was accepted.
  const nifs = new Set(sent.map((s) => s.nif));
  const asked = env.sim.state.requests.filter((r) => r.nif !== undefined && nifs.has(r.nif));
  expect(new Set(asked.filter((r) => r.environment !== 'scenarios').map((r) => r.nif))).toEqual(new Set([down.nif]));
  expect(new Set(asked.map((r) => r.environment))).toEqual(new Set(['scenarios', 'sandbox']));
  expect(env.sim.state.registries.sandbox.all()).toHaveLength(1);
  const [realState] = await env.states([real.body.data.id]);
  expect([realState.status, realState.sendAttempts]).toEqual(['accepted', 1]);
  // The scenario chain waits the simulator's second; the taxpayer's real chain keeps the authority's waiting time.
  const waits = await env.db.db.execute<{ scenario: boolean; wait_seconds: number }>(
    sql`SELECT c.scenario, s.wait_seconds FROM send_states s JOIN chains c ON c.id = s.chain_id WHERE c.taxpayer_id = ${down.taxpayerId} ORDER BY c.scenario`,
  );
  expect(waits.rows).toEqual([
    { scenario: false, wait_seconds: 60 },
    { scenario: true, wait_seconds: 1 },
  ]);
  // A rehearsed 4141 shows on its record and stops no real send.
  const stops = await env.db.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM sender_stops`);
  expect(stops.rows[0].n).toBe(0);
});

test('a correction and a cancellation of a scenario invoice go under their own scenarios to the end', async () => {
  const party = await env.party();
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const body = invoiceBody(taxpayer.id, party.systemId);
  const write = (call: request.Test, scenario: string, sent: object) =>
    call.set(party.account.auth).set('Sandbox-Scenario', scenario).send(sent).expect(201);
  const invoiceId = (await write(request(env.api).post('/api/v1/invoices'), 'accepted', body)).body.data.id as string;
  await env.settled([invoiceId], 15_000);
  const correction = await write(request(env.api).put(`/api/v1/invoices/${invoiceId}`), 'accepted_with_errors:2001', {
    ...body,
    description: 'Corregida',
  });
  const [corrected] = await env.settled([correction.body.data.id], 15_000);
  expect([corrected.status, corrected.code]).toEqual(['accepted_with_warnings', 2001]);
  const cancellation = await write(request(env.api).post(`/api/v1/invoices/${invoiceId}/cancel`), 'rejected:1100', {});
  const [cancelled] = await env.settled([cancellation.body.data.id], 15_000);
  expect([cancelled.status, cancelled.code]).toEqual(['rejected', 1100]);
  const records = (await request(env.api).get(`/api/v1/invoices/${invoiceId}`).set(party.account.auth).expect(200)).body.data.records;
  expect(records.map((r: { sandbox_scenario: string }) => r.sandbox_scenario)).toEqual([
    'accepted',
    'accepted_with_errors:2001',
    'rejected:1100',
  ]);
  expect(new Set(env.sim.state.requests.filter((r) => r.nif === taxpayer.nif).map((r) => r.environment))).toEqual(new Set(['scenarios']));
});

test('a refused scenario writes nothing: a production taxpayer, an unknown name, a code of the wrong level', async () => {
  const party = await env.party();
  const production = await env.taxpayer(party, { certificate: 'own', isProduction: true });
  const sandbox = await env.taxpayer(party, { certificate: 'own' });
  const count = async () => (await env.db.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM invoices`)).rows[0].n;
  const before = await count();
  for (const [taxpayerId, scenario, code] of [
    [production.id, 'accepted', 'sandbox_scenario_in_production'],
    [sandbox.id, 'rejected_later', 'invalid_sandbox_scenario'],
    [sandbox.id, 'rejected:4102', 'invalid_sandbox_scenario'],
  ]) {
    const res = await request(env.api)
      .post('/api/v1/invoices')
      .set(party.account.auth)
      .set('Sandbox-Scenario', scenario)
      .send(invoiceBody(taxpayerId, party.systemId));
    expect([scenario, res.status, res.body.code]).toEqual([scenario, 400, code]);
    expect(res.body.valid_scenarios).toContain('message_refused:<code>');
  }
  const batch = await request(env.api)
    .post('/api/v1/invoices/batch')
    .set(party.account.auth)
    .send([
      { ...invoiceBody(production.id, party.systemId), sandbox_scenario: 'accepted' },
      { ...invoiceBody(sandbox.id, party.systemId), sandbox_scenario: 'accepted_with_errors:1100' },
    ])
    .expect(207);
  expect(batch.body.results.map((r: { problem: { code: string } }) => r.problem.code)).toEqual([
    'sandbox_scenario_in_production',
    'invalid_sandbox_scenario',
  ]);
  expect(await count()).toBe(before);
});
