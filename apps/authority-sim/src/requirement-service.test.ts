import { buildRecordXml, buildRegFactuRequest, parseRecordValidationReply, parseRegFactuReply, type SubmissionResponse } from '@vf/xml';
import { httpsCall, startTestSimulator, type TestSimulator } from './testing/test-simulator';
import { freshChain, freshRecord } from './testing/sim-records';

const TAXPAYER = '89890001K';
const REFERENCE = 'REQ2026000123';

let t: TestSimulator;

beforeAll(async () => {
  t = await startTestSimulator({ taxpayerNifs: [TAXPAYER], behaviour: { waitSeconds: 0 } });
});
afterAll(() => t.close());
beforeEach(() => {
  t.sim.reset();
  t.sim.configure({ waitSeconds: 0 });
  t.sim.issueRequirement(TAXPAYER, REFERENCE);
});

const header = (end: boolean) => ({ obligado: { name: 'CONTRIBUYENTE', nif: TAXPAYER }, requirement: { reference: REFERENCE, end } });

async function post(url: string, body: string) {
  return httpsCall(url, { ca: t.ca, client: t.taxpayers[TAXPAYER], body });
}

function response(body: string): SubmissionResponse {
  const parsed = parseRegFactuReply(body);
  if (parsed.kind !== 'response') throw new Error(`expected an answer, got fault ${parsed.message}`);
  return parsed;
}

describe('RequerimientoSOAP', () => {
  it('registers records sent on request apart from the voluntary ones, and echoes the requerimiento', async () => {
    const chain = freshChain(TAXPAYER, 'REQ', 3);
    const first = response((await post(t.sim.requirementUrl, buildRegFactuRequest(header(false), chain.slice(0, 2)))).body);
    const last = response((await post(t.sim.requirementUrl, buildRegFactuRequest(header(true), chain.slice(2)))).body);
    expect([first.sendState, last.sendState]).toEqual(['Correcto', 'Correcto']);
    expect(t.sim.state.requirementRegistries.sandbox.all()).toHaveLength(3);
    expect(t.sim.state.registries.sandbox.all()).toHaveLength(0);
    expect(t.sim.state.counters.requirementRecords).toBe(3);
    // The same records sent again to the same service are duplicates there, and still new to voluntary sending.
    const again = response((await post(t.sim.requirementUrl, buildRegFactuRequest(header(true), chain.slice(2)))).body);
    expect(again.lines[0].errorCode).toBe(3000);
  });

  it('answers the production service under its own prefix, with its own registry', async () => {
    const production = t.sim.requirementUrl.replace('/wlpl/', '/production/wlpl/');
    const reply = response((await post(production, buildRegFactuRequest(header(true), [freshRecord(TAXPAYER, 'PRO-1')]))).body);
    expect(reply.sendState).toBe('Correcto');
    expect(t.sim.state.requirementRegistries.production.all()).toHaveLength(1);
    expect(t.sim.state.requirementRegistries.sandbox.all()).toHaveLength(0);
  });

  it('refuses a reference the authority did not issue to the taxpayer (4122) and one without FinRequerimiento (4129)', async () => {
    const other = { ...header(true), requirement: { reference: 'REQ9999', end: true } };
    const unknown = parseRegFactuReply(
      (await post(t.sim.requirementUrl, buildRegFactuRequest(other, [freshRecord(TAXPAYER, 'A-1')]))).body,
    );
    expect(unknown).toMatchObject({ kind: 'fault', code: 4122 });
    const withoutEnd = buildRegFactuRequest(header(true), [freshRecord(TAXPAYER, 'A-2')]).replace(
      /<sum1:FinRequerimiento>S<\/sum1:FinRequerimiento>/,
      '',
    );
    expect(parseRegFactuReply((await post(t.sim.requirementUrl, withoutEnd)).body)).toMatchObject({ kind: 'fault', code: 4129 });
    expect(t.sim.state.requirementRegistries.sandbox.all()).toHaveLength(0);
  });
});

describe('ValRegistroNoVerifactu', () => {
  it('judges a correct record Correcto and stores nothing', async () => {
    const reply = await post(t.sim.validationUrl, buildRecordXml(freshRecord(TAXPAYER, 'VAL-1')));
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('<sfR:RespuestaValContenidoFactuSistemaFacturacion');
    expect(parseRecordValidationReply(reply.body)).toMatchObject({
      kind: 'validated',
      id: { issuerNif: TAXPAYER, invoiceNumber: 'VAL-1' },
      operation: 'Alta',
      state: 'Correcto',
    });
    expect(t.sim.state.registries.sandbox.all()).toHaveLength(0);
    expect(t.sim.state.requirementRegistries.sandbox.all()).toHaveLength(0);
    expect(t.sim.state.counters).toMatchObject({ recordsValidated: 1, recordsRegistered: 0 });
  });

  it('answers a wrong huella as AceptadoConErrores (2000), as the authority’s examples do', async () => {
    const record = freshRecord(TAXPAYER, 'VAL-2', { overrides: { hash: 'A'.repeat(64) } });
    const reply = parseRecordValidationReply((await post(t.sim.validationUrl, buildRecordXml(record))).body);
    expect(reply).toMatchObject({ kind: 'validated', state: 'AceptadoConErrores', errorCode: 2000 });
  });

  it('answers a record the schema refuses with DescripcionErrorFormatoXML', async () => {
    const broken = buildRecordXml(freshRecord(TAXPAYER, 'VAL-3')).replace(/<sum1:TipoFactura>F1<\/sum1:TipoFactura>/, '');
    const reply = parseRecordValidationReply((await post(t.sim.validationUrl, broken)).body);
    expect(reply).toMatchObject({ kind: 'format_error' });
    expect(reply.kind === 'format_error' && reply.description).toMatch(/^Código\[4102\]/);
    const notRecord = parseRecordValidationReply((await post(t.sim.validationUrl, '<a>b</a>')).body);
    expect(notRecord).toMatchObject({ kind: 'format_error' });
  });
});
