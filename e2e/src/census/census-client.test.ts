import { createHash } from 'node:crypto';
import { Agent } from 'node:https';
import { checkCensus, type CensusCheckOptions } from '@vf/authority-client';
import { startTestSimulator, type TestSimulator } from '@vf/authority-sim/testing';
import { buildCensusRequest } from '@vf/xml';
import { testNif } from '../support/test-nifs';

// The census client against the real simulator over mutual TLS: answers matched by NIF, transient failures and rows
// the census did not process asked again, and what stays unanswered reported as unknown.

const PERSON = '89890001K';
const COMPANY = 'B85905495';
const GONE = '12345678Z';

let t: TestSimulator;
let agent: Agent;
let opts: CensusCheckOptions;

beforeAll(async () => {
  t = await startTestSimulator();
  agent = new Agent({ key: t.platform.keyPem, cert: t.platform.certPem, ca: t.ca.certPem });
  opts = { endpoint: t.sim.censusUrl, agent, timeoutMs: 5_000, attempts: 3, firstDelayMs: 10 };
});
afterAll(async () => {
  agent.destroy();
  await t.close();
});
beforeEach(() => {
  t.sim.reset();
  t.sim.seedCensus([
    { nif: COMPANY, status: 'identified', name: 'EMPRESA DE PRUEBAS SL' },
    { nif: GONE, status: 'deregistered' },
  ]);
});

test('matches the answer to the rows by NIF even when the census repeats rows, and keeps a digest of the request', async () => {
  t.sim.inject({ kind: 'censusRepeatedRows', next: 1 });
  const rows = [
    { nif: GONE, name: 'ALGUIEN' },
    { nif: COMPANY, name: 'EMPRESA PRUEBAS' },
    { nif: PERSON, name: 'APELLIDO NOMBRE' },
  ];
  const outcomes = await checkCensus(rows, opts);
  const digest = createHash('sha256').update(buildCensusRequest(rows)).digest('hex');
  expect(outcomes).toEqual([
    { result: 'invalid', detail: 'deregistered', requestDigest: digest },
    { result: 'invalid', detail: 'similar', censusName: 'EMPRESA DE PRUEBAS SL', requestDigest: digest },
    { result: 'valid', detail: 'identified', requestDigest: digest },
  ]);
  expect(t.sim.state.counters.censusRequests).toBe(1);
});

test('asks one NIF with two names in two requests, never the same NIF twice in one', async () => {
  const outcomes = await checkCensus(
    [
      { nif: COMPANY, name: 'EMPRESA DE PRUEBAS SL' },
      { nif: COMPANY, name: 'OTRA COSA' },
    ],
    opts,
  );
  expect(outcomes.map((o) => o.detail)).toEqual(['identified', 'not_identified']);
  expect(t.sim.state.counters.censusRequests).toBe(2);
});

test('sends a request again after a failure without a body, and rows the census did not process', async () => {
  t.sim.inject([
    { kind: 'http500Empty', operation: 'VNifV2', next: 1 },
    { kind: 'censusNotProcessed', nif: PERSON, next: 1 },
  ]);
  const outcomes = await checkCensus(
    [
      { nif: PERSON, name: 'APELLIDO NOMBRE' },
      { nif: GONE, name: 'ALGUIEN' },
    ],
    opts,
  );
  expect(outcomes.map((o) => o.detail)).toEqual(['identified', 'deregistered']);
  // The failed request, the one that left PERSON unprocessed, and PERSON alone again.
  expect(t.sim.state.counters.censusRequests).toBe(3);
});

test('reports rows still unprocessed after the last attempt as unknown, and a census that never answers too', async () => {
  t.sim.inject({ kind: 'censusNotProcessed', nif: PERSON });
  const [busy, fine] = await checkCensus(
    [
      { nif: PERSON, name: 'APELLIDO NOMBRE' },
      { nif: GONE, name: 'ALGUIEN' },
    ],
    opts,
  );
  expect(busy).toMatchObject({ result: 'unknown', detail: 'not_processed' });
  expect(fine).toMatchObject({ result: 'invalid', detail: 'deregistered' });
  t.sim.inject({ kind: 'connectionReset', operation: 'VNifV2' });
  expect(await checkCensus([{ nif: GONE, name: 'ALGUIEN' }], opts)).toMatchObject([{ result: 'unknown', detail: 'not_processed' }]);
});

test('answers 10,001 rows in two requests of at most 10,000, through repeated rows and a failure in the middle', async () => {
  const rows = Array.from({ length: 10_001 }, (_, n) => ({ nif: testNif(n), name: `CLIENTE ${n}` }));
  t.sim.seedCensus([{ nif: rows[5_000]!.nif, status: 'deregistered' }]);
  t.sim.inject([
    { kind: 'censusRepeatedRows', next: 1 },
    { kind: 'connectionReset', operation: 'VNifV2', next: 1 },
  ]);
  const outcomes = await checkCensus(rows, opts);
  expect(outcomes).toHaveLength(10_001);
  expect(outcomes.filter((o) => o.detail === 'identified')).toHaveLength(10_000);
  expect(outcomes[5_000]).toMatchObject({ result: 'invalid', detail: 'deregistered' });
  expect(new Set(outcomes.map((o) => o.requestDigest)).size).toBe(2);
});
