import request from 'supertest';
import { freePort } from '@vf/private-servers';
import { invoiceBody } from '@vf/api/testing';
import { expectedOutcome } from '@vf/core';
import { waitUntil } from '@vf/core/testing';
import { WorkerTestEnv } from '../support/worker-test-env';

// In aeat mode the authority is reached through the egress proxy, here a port nobody listens on: whatever is meant for
// the authority fails there. Sandbox scenario records go to the simulator beside the service (SCENARIO_SIMULATOR_URL,
// here SIMULATOR_URL's default), directly, and reach their final status: no scenario traffic goes the authority's way.

let env: WorkerTestEnv;
beforeAll(async () => {
  const closed = await freePort();
  env = await WorkerTestEnv.create({
    // The service gives up on an answer after 2 s: answered_after:4 rehearses an answer past its timeout.
    env: {
      AUTHORITY_MODE: 'aeat',
      HTTPS_PROXY: `http://127.0.0.1:${closed}`,
      NO_PROXY: '',
      SENDER_RETRY_MIN_SECONDS: '60',
      AUTHORITY_TIMEOUT_MS: '2000',
    },
  });
  await env.startWorker();
});
afterAll(() => env?.close());

test('in aeat mode scenario records go to the simulator beside the service, and nothing else of the taxpayer does', async () => {
  const party = await env.party();
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const register = (scenario?: string) => {
    const call = request(env.api).post('/api/v1/invoices').set(party.account.auth);
    return (scenario ? call.set('Sandbox-Scenario', scenario) : call).send(invoiceBody(taxpayer.id, party.systemId)).expect(201);
  };
  const real = (await register()).body.data.id as string;
  const accepted = (await register('accepted')).body.data.id as string;
  const rejected = (await register('rejected:1100')).body.data.id as string;
  // The Consulta that settles a lost reply asks the simulator too.
  const lost = (await register('reply_lost')).body.data.id as string;
  const late = (await register('answered_after:4')).body.data.id as string;

  const states = await env.settled([accepted, rejected, lost, late], 30_000);
  expect(states.map((s) => [s.status, s.code])).toEqual([
    ['accepted', null],
    ['rejected', 1100],
    ['accepted', null],
    ['accepted', null],
  ]);
  // Past the service's timeout the Consulta finds the record stored: one send, as the catalogue says.
  const lateSends = (await request(env.api).get(`/api/v1/invoices/${late}/submissions`).set(party.account.auth)).body.data;
  expect(lateSends).toHaveLength(expectedOutcome({ name: 'answered_after', seconds: 4 }).sends.min);
  // The real record went the authority's way (its preproduction service, through the closed proxy) and got nowhere.
  const [attempted] = await waitUntil(async () => {
    const [state] = await env.states([real]);
    return state.sendAttempts > 0 && state.lastError !== null && [state];
  }, 'the real record to have been tried');
  expect(attempted.status).not.toMatch(/accepted|rejected/);
  const submissions = (await request(env.api).get(`/api/v1/invoices/${real}/submissions`).set(party.account.auth)).body.data;
  expect(submissions[0].endpoint).toMatch(/^https:\/\/prewww1\.aeat\.es\//);
  const scenarioSubmissions = (await request(env.api).get(`/api/v1/invoices/${accepted}/submissions`).set(party.account.auth)).body.data;
  expect(scenarioSubmissions[0].endpoint).toBe(env.sim.scenarioUrl);
  // The simulator saw the scenario records only, on its scenario service.
  const asked = env.sim.state.requests.filter((r) => r.nif === taxpayer.nif);
  expect(asked.length).toBeGreaterThan(0);
  expect(new Set(asked.map((r) => r.environment))).toEqual(new Set(['scenarios']));
  expect(asked.some((r) => r.operation === 'Consulta')).toBe(true);
});
