import request from 'supertest';
import { madridToday, toAeatDate } from '@vf/core';
import { validateEachAgainstXsd } from '@vf/xml';
import { WorkerTestEnv, type Party } from '../support/worker-test-env';

// The operations matrix (AEAT "Validaciones y errores", annex 6) end to end: records made by the API, sent by a
// worker over mutual TLS, judged by the simulator's registries. One simulator, database and worker for the file; each
// test has its own taxpayers and faults, so the tests run side by side (each mostly waits on the simulator's waiting
// time between its sends).
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

interface RecordView {
  id: string;
  record_type: string;
  flags: { subsanacion: boolean; rechazo_previo: 'S' | 'X' | null; sin_registro_previo: boolean };
  hash: string;
}

const api = () => request(env.api);

async function correct(invoiceId: string, taxpayerId: string, number: string, description: string): Promise<RecordView> {
  const body = { ...invoiceFor(taxpayerId, number), description };
  const res = await api().put(`/api/v1/invoices/${invoiceId}`).set(party.account.auth).send(body);
  if (res.status !== 201) throw new Error(`correction refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function cancel(invoiceId: string): Promise<RecordView> {
  const res = await api().post(`/api/v1/invoices/${invoiceId}/cancel`).set(party.account.auth).send({ reason: 'prueba' });
  if (res.status !== 201) throw new Error(`cancellation refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

function invoiceFor(taxpayerId: string, number: string) {
  return {
    taxpayer_id: taxpayerId,
    computer_system_id: party.systemId,
    invoice_number: number,
    invoice_date: madridToday(),
    invoice_type: 'F1',
    description: 'Servicios',
    recipient: { name: 'Cliente SL', nif: 'B85905495' },
    breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: '100.00', tax_rate: '21', tax_amount: '21.00' }],
    total_amount: '121.00',
    total_tax_amount: '21.00',
  };
}

/** The taxpayer's next `n` records the simulator receives come back Incorrecto with this code, unregistered. */
function rejectNext(nif: string, n: number, code = 1100): void {
  env.sim.inject({ kind: 'recordCode', code, nif, next: n });
}

async function settle(id: string) {
  const [state] = await env.settled([id]);
  return state;
}

/** What the simulated authority holds for the invoice, in one environment. */
function held(nif: string, number: string, environment: 'sandbox' | 'production' = 'sandbox') {
  return env.sim.state.registries[environment].find({ issuerNif: nif, invoiceNumber: number, invoiceDate: toAeatDate(madridToday()) });
}

async function sentXml(invoiceId: string, recordId: string): Promise<string> {
  return (await api().get(`/api/v1/invoices/${invoiceId}/records/${recordId}/xml`).set(party.account.auth).expect(200)).text;
}

test.concurrent('ALTA POR RECHAZO, SUBSANACIÓN and ALTA POR RECHAZO DE SUBSANACIÓN reach the authority and get its outcomes', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const number = 'SUB-1';
  rejectNext(taxpayer.nif, 1);
  const [id] = await env.register(party, taxpayer.id, 1, { invoice_number: number });
  expect(await settle(id)).toMatchObject({ status: 'rejected', code: 1100 });
  expect(held(taxpayer.nif, number)).toBeUndefined();

  // Nothing registered: Subsanacion=S, RechazoPrevio=X creates the record (OK(1)).
  const byRejection = await correct(id, taxpayer.id, number, 'Corregida 1');
  expect(byRejection.flags).toEqual({ subsanacion: true, rechazo_previo: 'X', sin_registro_previo: false });
  expect(await settle(byRejection.id)).toMatchObject({ status: 'accepted' });
  expect(await sentXml(id, byRejection.id)).toContain('<sum1:Subsanacion>S</sum1:Subsanacion><sum1:RechazoPrevio>X</sum1:RechazoPrevio>');
  expect(held(taxpayer.nif, number)?.record).toMatchObject({ description: 'Corregida 1' });

  // Registered: Subsanacion=S alone replaces it (OK(4)).
  const subsanacion = await correct(id, taxpayer.id, number, 'Corregida 2');
  expect(subsanacion.flags).toEqual({ subsanacion: true, rechazo_previo: null, sin_registro_previo: false });
  expect(await settle(subsanacion.id)).toMatchObject({ status: 'accepted' });
  expect(held(taxpayer.nif, number)?.record).toMatchObject({ description: 'Corregida 2' });

  // That subsanación refused: the next one says RechazoPrevio=S (OK(4) again).
  rejectNext(taxpayer.nif, 1);
  const refused = await correct(id, taxpayer.id, number, 'Corregida 3');
  expect(await settle(refused.id)).toMatchObject({ status: 'rejected', code: 1100 });
  const afterRefusal = await correct(id, taxpayer.id, number, 'Corregida 4');
  expect(afterRefusal.flags).toEqual({ subsanacion: true, rechazo_previo: 'S', sin_registro_previo: false });
  expect(await settle(afterRefusal.id)).toMatchObject({ status: 'accepted' });
  expect(held(taxpayer.nif, number)?.record).toMatchObject({ description: 'Corregida 4' });

  const detail = (await api().get(`/api/v1/invoices/${id}`).set(party.account.auth).expect(200)).body.data;
  expect(detail).toMatchObject({ authority_status: 'accepted', description: 'Corregida 4', cancelled: false });
  expect(detail.records.map((r: { authority_status: string }) => r.authority_status)).toEqual([
    'rejected',
    'accepted',
    'accepted',
    'rejected',
    'accepted',
  ]);
});

test.concurrent(
  'ANULACIÓN, ANULACIÓN POR RECHAZO and ANULACIÓN SIN REGISTRO PREVIO reach the authority; the next alta chains to the anulación',
  async () => {
    const taxpayer = await env.taxpayer(party, { certificate: 'own' });

    // Registered alta: a plain anulación (OK(7)).
    const [accepted] = await env.register(party, taxpayer.id, 1, { invoice_number: 'ANU-1' });
    expect(await settle(accepted)).toMatchObject({ status: 'accepted' });
    const plain = await cancel(accepted);
    expect(plain.flags).toEqual({ subsanacion: false, rechazo_previo: null, sin_registro_previo: false });
    expect(await settle(plain.id)).toMatchObject({ status: 'accepted' });
    expect(held(taxpayer.nif, 'ANU-1')?.state).toBe('Anulado');
    expect(await sentXml(accepted, plain.id)).toContain('<sum1:NumSerieFacturaAnulada>ANU-1</sum1:NumSerieFacturaAnulada>');

    // The next alta links to the anulación (its huella, the anulada identifiers) and the authority accepts the chain.
    const [next] = await env.register(party, taxpayer.id, 1, { invoice_number: 'ANU-2' });
    expect(await settle(next)).toMatchObject({ status: 'accepted', code: null });

    // Its anulación refused: the next one says RechazoPrevio=S (OK(7)).
    rejectNext(taxpayer.nif, 1);
    const refused = await cancel(next);
    expect(await settle(refused.id)).toMatchObject({ status: 'rejected', code: 1100 });
    const again = await cancel(next);
    expect(again.flags).toEqual({ subsanacion: false, rechazo_previo: 'S', sin_registro_previo: false });
    expect(await settle(again.id)).toMatchObject({ status: 'accepted' });
    expect(held(taxpayer.nif, 'ANU-2')?.state).toBe('Anulado');

    // Alta refused, so nothing registered: SinRegistroPrevio=S creates the anulación (OK(9)).
    rejectNext(taxpayer.nif, 1);
    const [rejected] = await env.register(party, taxpayer.id, 1, { invoice_number: 'ANU-3' });
    expect(await settle(rejected)).toMatchObject({ status: 'rejected' });
    const withoutAlta = await cancel(rejected);
    expect(withoutAlta.flags).toEqual({ subsanacion: false, rechazo_previo: null, sin_registro_previo: true });
    expect(await settle(withoutAlta.id)).toMatchObject({ status: 'accepted' });
    expect(held(taxpayer.nif, 'ANU-3')?.state).toBe('Anulado');
  },
);

test.concurrent(
  'a cancelled invoice is reactivated by a subsanación: Subsanacion=S, accepted, in force again at the authority',
  async () => {
    const taxpayer = await env.taxpayer(party, { certificate: 'own' });
    const number = 'REA-1';
    const [id] = await env.register(party, taxpayer.id, 1, { invoice_number: number });
    expect(await settle(id)).toMatchObject({ status: 'accepted' });
    const anulacion = await cancel(id);
    expect(await settle(anulacion.id)).toMatchObject({ status: 'accepted' });
    expect(held(taxpayer.nif, number)?.state).toBe('Anulado');

    // The first try refused: the invoice stays cancelled, at the authority and in the API.
    rejectNext(taxpayer.nif, 1);
    const refused = await correct(id, taxpayer.id, number, 'Reactivada 1');
    expect(refused.flags).toEqual({ subsanacion: true, rechazo_previo: null, sin_registro_previo: false });
    expect(await settle(refused.id)).toMatchObject({ status: 'rejected', code: 1100 });
    expect(held(taxpayer.nif, number)?.state).toBe('Anulado');
    expect((await api().get(`/api/v1/invoices/${id}`).set(party.account.auth).expect(200)).body.data.cancelled).toBe(true);

    // ALTA POR RECHAZO DE SUBSANACIÓN over the anulación: OK(5), the record is in force again with the new content.
    const reactivation = await correct(id, taxpayer.id, number, 'Reactivada 2');
    expect(reactivation.flags).toEqual({ subsanacion: true, rechazo_previo: 'S', sin_registro_previo: false });
    expect(await settle(reactivation.id)).toMatchObject({ status: 'accepted', code: null });
    expect(held(taxpayer.nif, number)).toMatchObject({ state: 'Correcto', record: { description: 'Reactivada 2' } });
    const detail = (await api().get(`/api/v1/invoices/${id}`).set(party.account.auth).expect(200)).body.data;
    expect(detail).toMatchObject({ cancelled: false, authority_status: 'accepted', description: 'Reactivada 2' });
    expect(detail.records.map((r: RecordView & { authority_status: string }) => [r.record_type, r.authority_status])).toEqual([
      ['registration', 'accepted'],
      ['cancellation', 'accepted'],
      ['correction', 'rejected'],
      ['correction', 'accepted'],
    ]);

    // The message that carried it, as sent, is valid against the authority's schema.
    const xml = await sentXml(id, reactivation.id);
    expect(xml).toContain('<sum1:Subsanacion>S</sum1:Subsanacion><sum1:RechazoPrevio>S</sum1:RechazoPrevio>');
    const submissions = (await api().get(`/api/v1/invoices/${id}/submissions`).set(party.account.auth).expect(200)).body.data;
    const carrying = submissions.find((s: { request_xml: string }) => s.request_xml.includes('Reactivada 2'));
    const [verdict] = await validateEachAgainstXsd([carrying.request_xml], 'request');
    expect(verdict.errors).toEqual([]);

    // In force again: it can be cancelled again.
    const again = await cancel(id);
    expect(again.flags).toEqual({ subsanacion: false, rechazo_previo: null, sin_registro_previo: false });
    expect(await settle(again.id)).toMatchObject({ status: 'accepted' });
    expect(held(taxpayer.nif, number)?.state).toBe('Anulado');
  },
);

test.concurrent('after a switch to production the records go to the production service, starting a new chain there', async () => {
  const taxpayer = await env.taxpayer(party, { certificate: 'own' });
  const [sandbox] = await env.register(party, taxpayer.id, 1, { invoice_number: 'ENV-1' });
  expect(await settle(sandbox)).toMatchObject({ status: 'accepted' });

  await api().put(`/api/v1/taxpayers/${taxpayer.id}`).set(party.account.auth).send({ is_production: true }).expect(200);
  const [production] = await env.register(party, taxpayer.id, 1, { invoice_number: 'ENV-2' });
  // Accepted without 2007: PrimerRegistro=S is right, the production registry has no chain for this NIF yet.
  expect(await settle(production)).toMatchObject({ status: 'accepted', code: null });
  expect(held(taxpayer.nif, 'ENV-2', 'production')).toBeDefined();
  expect(held(taxpayer.nif, 'ENV-2', 'sandbox')).toBeUndefined();
  const [submission] = (await api().get(`/api/v1/invoices/${production}/submissions`).set(party.account.auth).expect(200)).body.data;
  expect(submission.endpoint).toBe(env.sim.productionUrl);
  expect(await sentXml(production, production)).toContain('<sum1:PrimerRegistro>S</sum1:PrimerRegistro>');
});
