import { issueCertificate, type IssuedCertificate } from '@vf/certificates/testing';
import type { ChainRecord, InvoiceId, RegistrationRecord } from '@vf/core';
import {
  buildConsultaRequest,
  buildRegFactuRequest,
  parseConsultaReply,
  parseRegFactuReply,
  validateEachAgainstXsd,
  type ResponseLine,
  type XsdTarget,
} from '@vf/xml';
import { madridInvoiceDate } from './spain-time';
import { PLATFORM_NIF, httpsCall, startTestSimulator, type TestSimulator } from './testing/test-simulator';
import { freshCancellation, freshRecord } from './testing/sim-records';

// Every row of AEAT's operations matrix (AEAT Validaciones y errores, annex 6 "Operativas admisibles") against what the simulator holds: nothing, an alta, an anulación.
const TAXPAYER = '89890001K';
const SECOND_COLLABORATOR = 'A86018322';
const header = { obligado: { name: 'CONTRIBUYENTE DE PRUEBAS', nif: TAXPAYER } };

let t: TestSimulator;
let second: IssuedCertificate;
/** The taxpayer's chain as the client generated it: every record sent, accepted or not. */
let chain: ChainRecord[];
/** Every answer of the file, checked against AEAT's XSDs in one run at the end (reading the schemas is the cost). */
const answers: { body: string; which: XsdTarget }[] = [];

beforeAll(async () => {
  t = await startTestSimulator({
    taxpayerNifs: [TAXPAYER],
    collaboratorNifs: [PLATFORM_NIF, SECOND_COLLABORATOR],
    // The simulator's check of incoming messages against the XSDs has its own tests (create-simulator.test.ts);
    // here every answer is checked against them instead.
    behaviour: { waitSeconds: 0, validateSchema: false },
  });
  second = issueCertificate(t.ca, { commonName: 'OTRA PLATAFORMA SA', nif: SECOND_COLLABORATOR });
});
afterAll(async () => {
  await t.close();
  for (const which of ['response', 'consulta-response'] as const) {
    const bodies = answers.filter((a) => a.which === which).map((a) => a.body);
    expect(bodies.length).toBeGreaterThan(0);
    expect((await validateEachAgainstXsd(bodies, which)).filter((r) => !r.valid)).toEqual([]);
  }
});
beforeEach(() => {
  t.sim.reset();
  chain = [];
});

function last(): ChainRecord | undefined {
  return chain[chain.length - 1];
}

function alta(invoiceNumber: string, overrides: Partial<RegistrationRecord> = {}): RegistrationRecord {
  return freshRecord(TAXPAYER, invoiceNumber, { previous: last(), overrides });
}

function anulacion(id: InvoiceId, flags: { sinRegistroPrevio?: boolean; rechazoPrevio?: boolean } = {}) {
  return freshCancellation(id, { previous: last(), overrides: flags });
}

/** Sends records in one message (appending them to the chain) and returns the answer lines. */
async function send(records: ChainRecord[], client: IssuedCertificate = t.platform): Promise<ResponseLine[]> {
  chain.push(...records);
  const reply = await httpsCall(t.sim.url, { ca: t.ca, client, body: buildRegFactuRequest(header, records) });
  answers.push({ body: reply.body, which: 'response' });
  const parsed = parseRegFactuReply(reply.body);
  if (parsed.kind !== 'response') throw new Error(`fault: ${parsed.message}`);
  return parsed.lines;
}

async function sendOne(record: ChainRecord, client?: IssuedCertificate): Promise<ResponseLine> {
  return (await send([record], client))[0];
}

async function consulta(invoiceNumber: string) {
  const [, month, year] = madridInvoiceDate(new Date()).split('-');
  const xml = buildConsultaRequest({ obligado: header.obligado, period: { year, month }, invoiceNumber });
  const reply = await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: xml });
  answers.push({ body: reply.body, which: 'consulta-response' });
  const parsed = parseConsultaReply(reply.body);
  if (parsed.kind !== 'consulta') throw new Error(parsed.message);
  return parsed.records;
}

const held = (id: InvoiceId) => t.sim.state.registry.find(id);

describe('ALTA (no flags) and ALTA POR RECHAZO (Subsanacion=S, RechazoPrevio=X)', () => {
  it('OK(1) with nothing held; ERROR(2) 3000 with RegistroDuplicado when an alta or an anulación is held', async () => {
    const first = alta('A-1');
    expect(await sendOne(first)).toMatchObject({ operation: 'Alta', state: 'Correcto' });
    const again = await sendOne(alta('A-1', { description: 'otra' }));
    expect(again).toMatchObject({ state: 'Incorrecto', errorCode: 3000, duplicate: { state: 'Correcta' } });
    const byRejection = await sendOne(alta('A-1', { flags: { subsanacion: true, rechazoPrevio: 'X' } }));
    expect(byRejection).toMatchObject({ state: 'Incorrecto', errorCode: 3000, flags: { subsanacion: 'S', rechazoPrevio: 'X' } });

    await sendOne(anulacion(first.id));
    const afterCancel = await sendOne(alta('A-1'));
    expect(afterCancel).toMatchObject({ state: 'Incorrecto', errorCode: 3000, duplicate: { state: 'Anulada' } });
    expect(held(first.id)?.state).toBe('Anulado');
  });

  it('registers an ALTA POR RECHAZO after the first alta was rejected, since the authority holds nothing', async () => {
    const rejected = alta('A-1', { recipients: [] });
    expect(await sendOne(rejected)).toMatchObject({ state: 'Incorrecto', errorCode: 1189 });
    const corrected = alta('A-1', { flags: { subsanacion: true, rechazoPrevio: 'X' } });
    expect(await sendOne(corrected)).toMatchObject({ state: 'Correcto', flags: { subsanacion: 'S', rechazoPrevio: 'X' } });
    expect(held(corrected.id)?.record).toEqual(corrected);
    expect(t.sim.state.counters.chainMismatches).toBe(0);
  });

  it('answers 3000 to a duplicate whose huella differs, and Consulta then shows the huella the authority holds', async () => {
    const ours = alta('A-1');
    await sendOne(ours);
    const theirs = alta('A-1', { total: '999.00', totalTax: '26.00' });
    expect(theirs.hash).not.toBe(ours.hash);
    const line = await sendOne(theirs);
    expect(line).toMatchObject({ errorCode: 3000, duplicate: { state: 'Correcta', requestId: held(ours.id)?.requestId } });
    const [record] = await consulta('A-1');
    expect(record).toMatchObject({ state: 'Correcto', data: { hash: ours.hash, generatedAt: ours.generatedAt } });
    expect(record.data.hash).not.toBe(theirs.hash);
  });
});

describe('ALTA DE SUBSANACIÓN (S) and ALTA POR RECHAZO DE SUBSANACIÓN (S, RechazoPrevio=S)', () => {
  it.each([
    ['ALTA DE SUBSANACIÓN', { subsanacion: true }],
    ['ALTA POR RECHAZO DE SUBSANACIÓN', { subsanacion: true, rechazoPrevio: 'S' as const }],
  ])('%s: ERROR(3) 3002 with nothing held, OK(4) replaces the alta, OK(5) reactivates an anulada invoice', async (_label, flags) => {
    expect(await sendOne(alta('A-1', { flags }))).toMatchObject({
      state: 'Incorrecto',
      errorCode: 3002,
      errorDescription: 'No existe el registro de facturación.',
    });
    expect(held({ issuerNif: TAXPAYER, invoiceNumber: 'A-1', invoiceDate: madridInvoiceDate(new Date()) })).toBeUndefined();

    const original = alta('A-1', { recipients: [{ name: 'CLIENTE', country: 'ES', idType: '07', id: '89890002E' }] });
    expect(await sendOne(original)).toMatchObject({ state: 'AceptadoConErrores', errorCode: 2001 });
    const correction = alta('A-1', { flags });
    expect(await sendOne(correction)).toMatchObject({ state: 'Correcto' });
    expect(held(original.id)).toMatchObject({ state: 'Correcto', record: correction });
    expect(held(original.id)?.errorCode).toBeUndefined();
    const [replaced] = await consulta('A-1');
    expect(replaced).toMatchObject({ state: 'Correcto', data: { hash: correction.hash, flags } });

    await sendOne(anulacion(original.id));
    expect(held(original.id)?.state).toBe('Anulado');
    const reactivation = alta('A-1', { flags, description: 'reactivada' });
    expect(await sendOne(reactivation)).toMatchObject({ state: 'Correcto' });
    expect(held(original.id)).toMatchObject({ state: 'Correcto', record: reactivation });
    expect(t.sim.state.counters.registeredByNif[TAXPAYER].map((r) => [r.operation, r.correction ?? false])).toEqual([
      ['Alta', false],
      ['Alta', true],
      ['Anulacion', false],
      ['Alta', true],
    ]);
  });
});

describe('ANULACIÓN (no flags) and ANULACIÓN POR RECHAZO (RechazoPrevio=S)', () => {
  it.each([
    ['ANULACIÓN', {}],
    ['ANULACIÓN POR RECHAZO', { rechazoPrevio: true }],
  ])('%s: ERROR(6) 3002 with nothing held, OK(7) cancels an alta, OK(8) on an anulada invoice', async (_label, flags) => {
    const id = { issuerNif: TAXPAYER, invoiceNumber: 'A-1', invoiceDate: madridInvoiceDate(new Date()) };
    expect(await sendOne(anulacion(id, flags))).toMatchObject({ operation: 'Anulacion', state: 'Incorrecto', errorCode: 3002 });

    const original = alta('A-1');
    await sendOne(original);
    const cancel = anulacion(id, flags);
    expect(await sendOne(cancel)).toMatchObject({ operation: 'Anulacion', id, state: 'Correcto', externalRef: 'inv_0001' });
    expect(held(id)).toMatchObject({ state: 'Anulado', record: cancel, alta: original });
    const [record] = await consulta('A-1');
    expect(record).toMatchObject({ state: 'Anulado', data: { hash: cancel.hash, generatedAt: cancel.generatedAt } });

    const again = anulacion(id, flags);
    expect(await sendOne(again)).toMatchObject({ state: 'Correcto' });
    expect(held(id)).toMatchObject({ state: 'Anulado', record: again });
    expect(t.sim.state.counters.chainMismatches).toBe(0);
  });

  it('checks the anulación huella with its own formula (2000 when wrong) and 1108 for another issuer', async () => {
    const original = alta('A-1');
    await sendOne(original);
    const wrong = freshCancellation(original.id, { previous: original, overrides: { hash: 'F'.repeat(64) } });
    expect(await sendOne(wrong)).toMatchObject({ state: 'AceptadoConErrores', errorCode: 2000 });
    const foreign = anulacion({ ...original.id, issuerNif: '89890002E' });
    expect(await sendOne(foreign)).toMatchObject({ state: 'Incorrecto', errorCode: 1108 });
  });
});

describe('ANULACIÓN SIN REGISTRO PREVIO (SinRegistroPrevio=S, with or without RechazoPrevio=S)', () => {
  it.each([
    ['ANULACIÓN SIN REGISTRO PREVIO', { sinRegistroPrevio: true }],
    ['ANULACIÓN POR RECHAZO SIN REGISTRO PREVIO', { sinRegistroPrevio: true, rechazoPrevio: true }],
  ])('%s: OK(9) creates the anulación, ERROR(10) 3000 when an alta is held, 3001 when already anulada', async (_label, flags) => {
    const id = { issuerNif: TAXPAYER, invoiceNumber: 'A-1', invoiceDate: madridInvoiceDate(new Date()) };
    const cancel = anulacion(id, flags);
    const line = await sendOne(cancel);
    expect(line).toMatchObject({ state: 'Correcto', flags: { sinRegistroPrevio: 'S' } });
    expect(held(id)).toMatchObject({ state: 'Anulado', record: cancel });
    expect(held(id)?.alta).toBeUndefined();
    const [record] = await consulta('A-1');
    expect(record).toMatchObject({ state: 'Anulado', data: { hash: cancel.hash, sinRegistroPrevio: true } });

    expect(await sendOne(anulacion(id, flags))).toMatchObject({
      state: 'Incorrecto',
      errorCode: 3001,
      errorDescription: 'El registro de facturación ya ha sido dado de baja.',
    });

    const other = alta('A-2');
    await sendOne(other);
    expect(await sendOne(anulacion(other.id, flags))).toMatchObject({
      state: 'Incorrecto',
      errorCode: 3000,
      duplicate: { state: 'Correcta' },
    });
    expect(held(other.id)?.state).toBe('Correcto');
  });
});

describe('flag rules and chaining', () => {
  it.each([
    ['RechazoPrevio=X without Subsanacion', { rechazoPrevio: 'X' as const }, 1153],
    ['RechazoPrevio=S without Subsanacion', { rechazoPrevio: 'S' as const }, 1161],
  ])('refuses %s (%s) whatever is held', async (_label, flags, code) => {
    expect(await sendOne(alta('A-1', { flags }))).toMatchObject({ state: 'Incorrecto', errorCode: code });
    await sendOne(alta('A-2'));
    expect(await sendOne(alta('A-2', { flags }))).toMatchObject({ state: 'Incorrecto', errorCode: code });
  });

  it('refuses Subsanacion=N with RechazoPrevio X or S (1153, 1161), written explicitly', async () => {
    const withN = (record: RegistrationRecord) =>
      buildRegFactuRequest(header, [record]).replace('<sum1:RechazoPrevio>', '<sum1:Subsanacion>N</sum1:Subsanacion><sum1:RechazoPrevio>');
    for (const [flag, code] of [
      ['X', 1153],
      ['S', 1161],
    ] as const) {
      const xml = withN(alta(`A-${flag}`, { flags: { rechazoPrevio: flag } }));
      expect(xml).toContain(`<sum1:Subsanacion>N</sum1:Subsanacion><sum1:RechazoPrevio>${flag}</sum1:RechazoPrevio>`);
      const reply = parseRegFactuReply((await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: xml })).body);
      expect(reply.kind === 'response' && reply.lines[0]).toMatchObject({ state: 'Incorrecto', errorCode: code });
    }
  });

  it('accepts a message mixing altas and anulaciones in chain order, the alta after an anulación chaining to the anulada ids', async () => {
    const a1 = alta('A-1');
    chain.push(a1);
    const a2 = alta('A-2');
    chain.push(a2);
    const cancel = anulacion(a1.id);
    chain.push(cancel);
    const a3 = alta('A-3');
    chain.length = 0;
    expect(a3.previous).toEqual({ ...a1.id, hash: cancel.hash });
    const lines = await send([a1, a2, cancel, a3]);
    expect(lines.map((l) => [l.operation, l.id.invoiceNumber, l.state])).toEqual([
      ['Alta', 'A-1', 'Correcto'],
      ['Alta', 'A-2', 'Correcto'],
      ['Anulacion', 'A-1', 'Correcto'],
      ['Alta', 'A-3', 'Correcto'],
    ]);
    expect(t.sim.state.counters.chainMismatches).toBe(0);
  });
});

describe('who may update a record (3003)', () => {
  it('refuses a subsanación or anulación by a colaborador social other than the one that presented the alta', async () => {
    const original = alta('A-1');
    await sendOne(original);
    expect(await sendOne(alta('A-1', { flags: { subsanacion: true } }), second)).toMatchObject({ state: 'Incorrecto', errorCode: 3003 });
    expect(await sendOne(anulacion(original.id), second)).toMatchObject({ state: 'Incorrecto', errorCode: 3003 });
    // the presenter itself and the taxpayer may
    expect(await sendOne(alta('A-1', { flags: { subsanacion: true } }), t.taxpayers[TAXPAYER])).toMatchObject({ state: 'Correcto' });
    expect(await sendOne(anulacion(original.id))).toMatchObject({ state: 'Correcto' });
  });
});

describe('an invoice entered through the web form (3004)', () => {
  it('refuses a subsanación or anulación from a SIF; an alta of the same number is a duplicate', async () => {
    const id = { issuerNif: TAXPAYER, invoiceNumber: 'WEB-1', invoiceDate: madridInvoiceDate(new Date()) };
    const registered = await httpsCall(`${new URL(t.sim.url).origin}/__sim/form-invoices`, {
      ca: t.ca,
      client: t.platform,
      contentType: 'application/json',
      body: JSON.stringify({ invoices: [{ issuer_nif: id.issuerNif, invoice_number: id.invoiceNumber, invoice_date: id.invoiceDate }] }),
    });
    expect(JSON.parse(registered.body)).toEqual({ environment: 'sandbox', registered: 1 });

    const correction = await sendOne(alta('WEB-1', { flags: { subsanacion: true } }));
    expect(correction).toMatchObject({ state: 'Incorrecto', errorCode: 3004, errorDescription: expect.stringContaining('formulario') });
    expect(await sendOne(anulacion(id))).toMatchObject({ operation: 'Anulacion', state: 'Incorrecto', errorCode: 3004 });
    expect(await sendOne(alta('WEB-1'))).toMatchObject({ state: 'Incorrecto', errorCode: 3000, duplicate: { state: 'Correcta' } });
    expect(held(id)).toMatchObject({ state: 'Correcto', viaForm: true });
    // The web-form record is no link of the SIF's chain.
    expect(t.sim.state.counters.chainMismatches).toBe(0);
  });

  it('refuses a malformed list', async () => {
    const reply = await httpsCall(`${new URL(t.sim.url).origin}/__sim/form-invoices`, {
      ca: t.ca,
      client: t.platform,
      contentType: 'application/json',
      body: '{"invoices": [{"issuer_nif": "89890001K", "invoice_number": "X", "invoice_date": "2025-01-01"}]}',
    });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).error).toContain('dd-mm-yyyy');
  });
});
