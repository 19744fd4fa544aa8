import request from 'supertest';
import { xmlsec1Verifies } from '@vf/signing/testing';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

// The simulator validates messages here (off by default in worker tests), so it verifies every signature it receives.
let env: WorkerTestEnv;
let party: Party;
beforeAll(async () => {
  env = await WorkerTestEnv.create({ behaviour: { validateSchema: true } });
  party = await env.party();
  await env.startWorker();
});
afterAll(async () => {
  await env?.close();
});

const RECORD = /<sum1:(RegistroAlta|RegistroAnulacion) [\s\S]*?<\/sum1:\1>/g;

async function recordXml(invoiceId: string, recordId = invoiceId): Promise<string> {
  return (await request(env.api).get(`/api/v1/invoices/${invoiceId}/records/${recordId}/xml`).set(party.account.auth).expect(200)).text;
}

async function requestsCarrying(invoiceId: string): Promise<string[]> {
  const res = await request(env.api).get(`/api/v1/invoices/${invoiceId}/submissions`).set(party.account.auth).expect(200);
  return (res.body.data as { request_xml: string; started_at: string }[])
    .sort((a, b) => a.started_at.localeCompare(b.started_at))
    .map((s) => s.request_xml);
}

test('every record the worker sends is signed: xmlsec1 verifies it as the API returns it, the simulator counted it valid, the chain verifies', async () => {
  const own = await env.taxpayer(party, { certificate: 'own' });
  const collaborator = await env.taxpayer(party, { certificate: 'none' });
  const before = { ...env.sim.state.counters.signatures };
  const altas = await env.register(party, own.id, 3);
  const [platformAlta] = await env.register(party, collaborator.id, 1);
  await env.settled([...altas, platformAlta]);
  const cancellation = (await request(env.api).post(`/api/v1/invoices/${altas[0]}/cancel`).set(party.account.auth).send({}).expect(201))
    .body.data;
  const states = await env.settled([cancellation.id]);
  expect(states.map((s) => s.status)).toEqual(['accepted']);

  for (const [invoiceId, recordId] of [...[...altas, platformAlta].map((id) => [id, id]), [altas[0], cancellation.id]]) {
    const signed = await recordXml(invoiceId, recordId);
    expect(signed).toMatch(/<ds:Signature [\s\S]*<\/ds:Signature><\/sum1:Registro(Alta|Anulacion)>$/);
    expect(xmlsec1Verifies(signed, env.ca.certPem)).toMatchObject({ ok: true });
    // Every message that carried the record (RefExterna is its id) carried exactly these bytes.
    const carrying = (await requestsCarrying(invoiceId)).filter((xml) => xml.includes(`<sum1:RefExterna>${recordId}</sum1:RefExterna>`));
    expect(carrying.length).toBeGreaterThan(0);
    for (const xml of carrying) expect(xml).toContain(`<sum:RegistroFactura>${signed}</sum:RegistroFactura>`);
    const verification = (
      await request(env.api).get(`/api/v1/invoices/${invoiceId}/records/${recordId}/verification`).set(party.account.auth).expect(200)
    ).body.data;
    expect(verification).toMatchObject({ valid: true, signature: { status: 'valid' } });
  }
  const counted = env.sim.state.counters.signatures;
  expect({
    valid: counted.valid - before.valid,
    invalid: counted.invalid - before.invalid,
    missing: counted.missing - before.missing,
  }).toEqual({
    valid: 5,
    invalid: 0,
    missing: 0,
  });

  const chain = (await request(env.api).get(`/api/v1/chain/${own.nif}/verification`).set(party.account.auth).expect(200)).body.data;
  expect(chain).toMatchObject({ valid: true, verified: 4, broken_link: null, signatures: { valid: 4, invalid: 0, missing: 0 } });
});

test('a resend after a lost answer carries the very same signed record, byte for byte', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  await env.settled(await env.register(party, taxpayer.id, 1));
  // The Consulta that follows the lost answer fails too, so the record must go again.
  env.sim.inject([
    { kind: 'replyLost', nif: taxpayer.nif, operation: 'RegFactu', next: 1 },
    { kind: 'soapFault', code: 102, nif: taxpayer.nif, operation: 'Consulta', next: 1 },
  ]);
  const [id] = await env.register(party, taxpayer.id, 1);
  const [state] = await env.settled([id]);
  expect(state).toMatchObject({ status: 'accepted', sendAttempts: 2 });

  const requests = await requestsCarrying(id);
  expect(requests).toHaveLength(2);
  const sent = requests.map((xml) => xml.match(RECORD));
  expect(sent[0]).toHaveLength(1);
  expect(sent[1]).toEqual(sent[0]);
  expect(sent[0]![0]).toBe(await recordXml(id));
  expect(xmlsec1Verifies(sent[1]![0], env.ca.certPem)).toMatchObject({ ok: true });
});
