import { createTestCa, issueCertificate } from '@vf/certificates/testing';
import type { RegistrationRecord } from '@vf/core';
import { signingIdentity, signRecord } from '@vf/signing';
import {
  buildConsultaRequest,
  buildRecordXml,
  buildRegFactuRequest,
  parseConsultaReply,
  parseRegFactuReply,
  validateAgainstXsd,
  type ParsedReply,
  type SubmissionResponse,
} from '@vf/xml';
import { madridInvoiceDate } from './spain-time';
import { httpsCall, PLATFORM_NIF, startTestSimulator, type TestSimulator } from './testing/test-simulator';
import { freshChain, freshRecord } from './testing/sim-records';

const TAXPAYER = '89890001K';
const OTHER = '89890002E';
const UNKNOWN = '12345678Z';
// records issued by OTHER need a recipient other than themselves
const otherRecord = (invoiceNumber: string) =>
  freshRecord(OTHER, invoiceNumber, { overrides: { recipients: [{ name: 'CLIENTE', nif: TAXPAYER }] } });
const header = (nif = TAXPAYER) => ({ obligado: { name: `CONTRIBUYENTE ${nif}`, nif } });

let t: TestSimulator;

beforeAll(async () => {
  t = await startTestSimulator({ taxpayerNifs: [TAXPAYER, OTHER], unknownNifs: [UNKNOWN], behaviour: { waitSeconds: 0 } });
});
afterAll(() => t.close());
beforeEach(() => {
  t.sim.reset();
  t.sim.configure({ waitSeconds: 0 });
});

async function send(records: RegistrationRecord[], opts: { client?: 'platform' | string; nif?: string; incident?: boolean } = {}) {
  const client = opts.client === undefined || opts.client === 'platform' ? t.platform : t.taxpayers[opts.client];
  const xml = buildRegFactuRequest({ ...header(opts.nif), ...(opts.incident ? { incident: true } : {}) }, records);
  const reply = await httpsCall(t.sim.url, { ca: t.ca, client, body: xml });
  return { ...reply, parsed: parseRegFactuReply(reply.body) };
}

function asResponse(parsed: ParsedReply): SubmissionResponse {
  if (parsed.kind !== 'response') throw new Error(`expected a response, got fault ${parsed.message}`);
  return parsed;
}

describe('mutual TLS', () => {
  it('refuses a client without a certificate', async () => {
    await expect(httpsCall(t.sim.url, { ca: t.ca, body: '<x/>' })).rejects.toThrow();
    expect(t.sim.state.counters.requests).toBe(0);
  });

  it('refuses a client certificate from another CA', async () => {
    const otherCa = createTestCa('OTHER CA');
    const stranger = issueCertificate(otherCa, { commonName: 'X', nif: TAXPAYER });
    await expect(httpsCall(t.sim.url, { ca: t.ca, client: stranger, body: '<x/>' })).rejects.toThrow();
  });

  it('rejects with 4112 a holder who is neither the taxpayer nor a colaborador social', async () => {
    const reply = await send([freshRecord(TAXPAYER, 'A-1')], { client: OTHER });
    expect(reply.status).toBe(500);
    expect(reply.parsed).toMatchObject({ kind: 'fault', side: 'client', code: 4112 });
    expect(t.sim.state.counters.recordsRegistered).toBe(0);
    expect(t.sim.state.counters.faultCodes).toEqual({ '4112': 1 });
  });

  it('accepts the taxpayer itself and a colaborador social, naming the holder as presenter', async () => {
    const own = asResponse((await send([freshRecord(TAXPAYER, 'A-1')], { client: TAXPAYER })).parsed);
    expect(own.presenterNif).toBe(TAXPAYER);
    const social = asResponse((await send([otherRecord('B-1')], { nif: OTHER })).parsed);
    expect(social.presenterNif).toBe(PLATFORM_NIF);
  });
});

describe('RegFactuSistemaFacturacion', () => {
  it('registers a correct chain: Correcto, CSV, DatosPresentacion, TiempoEsperaEnvio, schema-valid answer', async () => {
    const chain = freshChain(TAXPAYER, 'A', 3);
    const reply = await send(chain);
    expect(reply.status).toBe(200);
    expect(reply.contentType).toMatch(/^text\/xml/);
    expect(await validateAgainstXsd(reply.body, 'response')).toEqual({ valid: true, errors: [] });
    const response = asResponse(reply.parsed);
    expect(response.sendState).toBe('Correcto');
    expect(response.csv).toMatch(/^A-[A-Z0-9]{14}$/);
    expect(response.presentedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    expect(response.waitSeconds).toBe(0);
    expect(response.lines.map((l) => [l.id.invoiceNumber, l.state, l.externalRef])).toEqual([
      ['A-0001', 'Correcto', 'inv_0001'],
      ['A-0002', 'Correcto', 'inv_0001'],
      ['A-0003', 'Correcto', 'inv_0001'],
    ]);
    expect(t.sim.state.counters.registeredByNif[TAXPAYER].map((r) => r.invoiceNumber)).toEqual(['A-0001', 'A-0002', 'A-0003']);
    expect(t.sim.state.counters).toMatchObject({
      requests: 1,
      recordsReceived: 3,
      recordsRegistered: 3,
      maxRecordsPerMessage: 3,
      chainMismatches: 0,
    });
    expect(t.sim.state.registry.find(chain[1].id)).toMatchObject({ state: 'Correcto', csv: response.csv });
  });

  it('accepts with errors a wrong huella (2000) and an old generation time (2004): ParcialmenteCorrecto', async () => {
    const [first] = freshChain(TAXPAYER, 'A', 1);
    const wrongHash = freshRecord(TAXPAYER, 'A-0002', { previous: first, overrides: { hash: 'A'.repeat(64) } });
    const late = freshRecord(TAXPAYER, 'A-0003', { previous: wrongHash, now: new Date(Date.now() - 10 * 60_000) });
    const response = asResponse((await send([first, wrongHash, late], { incident: true })).parsed);
    expect(response.sendState).toBe('ParcialmenteCorrecto');
    expect(response.lines.map((l) => [l.state, l.errorCode])).toEqual([
      ['Correcto', undefined],
      ['AceptadoConErrores', 2000],
      ['AceptadoConErrores', 2004],
    ]);
    expect(response.lines[1].errorDescription).toBe('El cálculo de la huella suministrada es incorrecta.');
    expect(response.lines[2].errorDescription).toMatch(/margen de error de: 240 segundos$/);
    expect(response.csv).toBeDefined();
    expect(t.sim.state.counters).toMatchObject({ recordsRegistered: 3, recordsAcceptedWithErrors: 2 });
  });

  it('rejects blocking errors per record: Incorrecto lines, no CSV when nothing was accepted', async () => {
    const noRecipient = freshRecord(TAXPAYER, 'A-0001', { overrides: { recipients: [] } });
    const response = asResponse((await send([noRecipient])).parsed);
    expect(response).toMatchObject({ sendState: 'Incorrecto', lines: [{ state: 'Incorrecto', errorCode: 1189 }] });
    expect(response.csv).toBeUndefined();
    expect(response.presenterNif).toBeUndefined();
    expect(t.sim.state.registry.find(noRecipient.id)).toBeUndefined();

    const good = freshRecord(TAXPAYER, 'A-0002', { previous: noRecipient });
    const otherIssuer = otherRecord('B-0001');
    const mixed = asResponse((await send([good, otherIssuer])).parsed);
    expect(mixed.sendState).toBe('ParcialmenteCorrecto');
    expect(mixed.lines.map((l) => [l.state, l.errorCode])).toEqual([
      ['Correcto', undefined],
      ['Incorrecto', 1108],
    ]);
    expect(t.sim.state.counters.lineCodes).toEqual({ '1189': 1, '1108': 1 });
  });

  it('answers a resend of a registered record with 3000 and the stored state', async () => {
    const [record] = freshChain(TAXPAYER, 'A', 1);
    const firstSend = asResponse((await send([record])).parsed);
    const stored = t.sim.state.registry.find(record.id)!;
    const resend = asResponse((await send([record])).parsed);
    expect(resend.sendState).toBe('Incorrecto');
    expect(resend.lines[0]).toMatchObject({
      state: 'Incorrecto',
      errorCode: 3000,
      errorDescription: 'Registro de facturación duplicado.',
      duplicate: { requestId: stored.requestId, state: 'Correcta' },
    });
    expect(firstSend.csv).toBe(stored.csv);
    expect(t.sim.state.counters).toMatchObject({ duplicates: 1, recordsRegistered: 1 });
    expect(t.sim.state.counters.registeredByNif[TAXPAYER]).toHaveLength(1);
  });

  it('flags PrimerRegistro=S when the chain already exists (2007) and counts records sent out of chain order', async () => {
    const chain = freshChain(TAXPAYER, 'A', 3);
    await send([chain[0], chain[2]]);
    expect(t.sim.state.counters.chainMismatches).toBe(1);
    const restart = freshRecord(TAXPAYER, 'A-0009');
    const response = asResponse((await send([restart])).parsed);
    expect(response.lines[0]).toMatchObject({ state: 'AceptadoConErrores', errorCode: 2007 });
  });

  it('rejects the whole message with 4104 when the taxpayer is not in the census', async () => {
    const reply = await send([freshRecord(UNKNOWN, 'U-1')], { nif: UNKNOWN });
    expect(reply.parsed).toMatchObject({ kind: 'fault', code: 4104 });
    expect(reply.parsed.kind === 'fault' && reply.parsed.message).toContain(`NIF:${UNKNOWN}`);
    expect(t.sim.state.counters.recordsRegistered).toBe(0);
  });

  it('rejects a schema-invalid message with a 4102 client fault naming the missing field, and registers nothing', async () => {
    const xml = buildRegFactuRequest(header(), [freshRecord(TAXPAYER, 'A-1')]).replace(
      /<sum1:NombreRazonEmisor>[^<]*<\/sum1:NombreRazonEmisor>/,
      '',
    );
    const reply = await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: xml });
    expect(reply.status).toBe(500);
    expect(parseRegFactuReply(reply.body)).toMatchObject({
      kind: 'fault',
      side: 'client',
      code: 4102,
      message: 'Codigo[4102].El XML no cumple el esquema. Falta informar campo obligatorio.: NombreRazonEmisor',
    });
    expect(t.sim.state.counters.recordsRegistered).toBe(0);

    const garbage = await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: 'not xml' });
    expect(parseRegFactuReply(garbage.body)).toMatchObject({ kind: 'fault', code: 4103 });
  });

  it('skips schema validation, not the well-formedness check, only when told to (validateSchema: false, for throughput benchmarks)', async () => {
    t.sim.configure({ validateSchema: false });
    try {
      const xml = buildRegFactuRequest(header(), [freshRecord(TAXPAYER, 'A-1')]).replace(
        '</sum1:DescripcionOperacion>',
        '</sum1:DescripcionOperacion><sum1:Comentario>no está en el esquema</sum1:Comentario>',
      );
      const reply = await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: xml });
      expect(asResponse(parseRegFactuReply(reply.body)).sendState).toBe('Correcto');

      // Well-formedness is still checked: it costs nothing more than reading the message.
      const truncated = buildRegFactuRequest(header(), [freshRecord(TAXPAYER, 'A-2')]).slice(0, -40);
      const refused = await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: truncated });
      expect(parseRegFactuReply(refused.body)).toMatchObject({ kind: 'fault', code: 4103 });
      expect(t.sim.state.counters.recordsRegistered).toBe(1);
    } finally {
      t.sim.configure({ validateSchema: true });
    }
  });

  it.each([true, false])(
    'reads signed records by their content (schema validation %s): each registered as sent',
    async (validateSchema) => {
      t.sim.configure({ validateSchema });
      try {
        const signer = signingIdentity(t.taxpayers[TAXPAYER]);
        const chain = freshChain(TAXPAYER, 'F', 3);
        const records = [
          signRecord(buildRecordXml(chain[0]), signer, { at: new Date() }),
          chain[1],
          signRecord(buildRecordXml(chain[2]), signer, { at: new Date() }),
        ];
        const reply = await httpsCall(t.sim.url, {
          ca: t.ca,
          client: t.taxpayers[TAXPAYER],
          body: buildRegFactuRequest(header(), records),
        });
        expect(asResponse(parseRegFactuReply(reply.body)).lines.map((l) => [l.id.invoiceNumber, l.state, l.externalRef])).toEqual(
          chain.map((r) => [r.id.invoiceNumber, 'Correcto', r.externalRef]),
        );
        expect(t.sim.state.counters.registeredByNif[TAXPAYER].map((r) => r.hash)).toEqual(chain.map((r) => r.hash));
        expect(t.sim.state.counters.signatures).toEqual(
          validateSchema ? { valid: 2, invalid: 0, missing: 1 } : { valid: 0, invalid: 0, missing: 0 },
        );
      } finally {
        t.sim.configure({ validateSchema: true });
      }
    },
  );

  it('counts a send before TiempoEsperaEnvio elapsed as a flow-control violation, and still processes it', async () => {
    t.sim.configure({ waitSeconds: 60 });
    const chain = freshChain(TAXPAYER, 'A', 2);
    expect(asResponse((await send([chain[0]])).parsed).waitSeconds).toBe(60);
    const early = asResponse((await send([chain[1]])).parsed);
    expect(early.sendState).toBe('Correcto');
    expect(t.sim.state.counters.flowControlViolations).toBe(1);
    // another taxpayer has its own timer
    await send([otherRecord('B-1')], { nif: OTHER });
    expect(t.sim.state.counters.flowControlViolations).toBe(1);
  });
});

describe('Consulta', () => {
  it('answers from the registry with state, huella and presentation data', async () => {
    const chain = freshChain(TAXPAYER, 'A', 2);
    await send(chain);
    const [, month, year] = madridInvoiceDate(new Date()).split('-');
    const xml = buildConsultaRequest({ obligado: header().obligado, period: { year, month }, invoiceNumber: 'A-0002' });
    const reply = await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: xml });
    expect(reply.status).toBe(200);
    expect(await validateAgainstXsd(reply.body, 'consulta-response')).toEqual({ valid: true, errors: [] });
    const parsed = parseConsultaReply(reply.body);
    if (parsed.kind !== 'consulta') throw new Error(parsed.message);
    expect(parsed.records).toHaveLength(1);
    expect(parsed.records[0]).toMatchObject({
      id: chain[1].id,
      state: 'Correcto',
      data: { hash: chain[1].hash, previous: { ...chain[0].id, hash: chain[0].hash } },
      presentation: { presenterNif: PLATFORM_NIF },
    });

    const none = buildConsultaRequest({ obligado: header().obligado, period: { year, month }, invoiceNumber: 'NOPE' });
    const empty = parseConsultaReply((await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: none })).body);
    expect(empty).toMatchObject({ kind: 'consulta', records: [] });
  });

  it('refuses a consulta by someone who may not act for the taxpayer', async () => {
    const xml = buildConsultaRequest({ obligado: header().obligado, period: { year: '2025', month: '01' } });
    const reply = await httpsCall(t.sim.url, { ca: t.ca, client: t.taxpayers[OTHER], body: xml });
    expect(parseConsultaReply(reply.body)).toMatchObject({ kind: 'fault', code: 4112 });
  });
});

describe('sandbox and production services', () => {
  async function sendTo(url: string, records: RegistrationRecord[]) {
    const reply = await httpsCall(url, { ca: t.ca, client: t.platform, body: buildRegFactuRequest(header(), records) });
    return asResponse(parseRegFactuReply(reply.body));
  }

  it('keeps separate registries: the same invoice and a new chain are accepted by each', async () => {
    expect(t.sim.productionUrl).toBe(t.sim.url.replace('/wlpl/', '/production/wlpl/'));
    const [sandboxRecord] = freshChain(TAXPAYER, 'A', 1);
    expect((await sendTo(t.sim.url, [sandboxRecord])).sendState).toBe('Correcto');
    // a first record (PrimerRegistro=S) in production: no 2007, and the sandbox invoice is not a duplicate there
    const productionRecord = freshRecord(TAXPAYER, 'A-0001', {
      overrides: { generatedAt: sandboxRecord.generatedAt, description: 'producción' },
    });
    expect((await sendTo(t.sim.productionUrl, [productionRecord])).lines[0]).toMatchObject({ state: 'Correcto' });
    expect(t.sim.state.registries.sandbox.find(sandboxRecord.id)?.record).toEqual(sandboxRecord);
    expect(t.sim.state.registries.production.find(productionRecord.id)?.record).toEqual(productionRecord);
    expect(t.sim.state.counters.registeredByNif[TAXPAYER].map((r) => r.environment)).toEqual(['sandbox', 'production']);

    const [, month, year] = madridInvoiceDate(new Date()).split('-');
    const query = buildConsultaRequest({ obligado: header().obligado, period: { year, month } });
    const held = parseConsultaReply((await httpsCall(t.sim.productionUrl, { ca: t.ca, client: t.platform, body: query })).body);
    expect(held.kind === 'consulta' && held.records.map((r) => r.data.hash)).toEqual([productionRecord.hash]);
  });

  it('keeps separate flow-control timers, and answers GET on the production endpoint with 4135', async () => {
    t.sim.configure({ waitSeconds: 60 });
    const sandbox = freshChain(TAXPAYER, 'S', 2);
    const production = freshChain(TAXPAYER, 'P', 1);
    await sendTo(t.sim.url, [sandbox[0]]);
    await sendTo(t.sim.productionUrl, production);
    expect(t.sim.state.counters.flowControlViolations).toBe(0);
    await sendTo(t.sim.url, [sandbox[1]]);
    expect(t.sim.state.counters.flowControlViolations).toBe(1);
    const get = await httpsCall(t.sim.productionUrl, { ca: t.ca, client: t.platform, method: 'GET' });
    expect(parseRegFactuReply(get.body)).toMatchObject({ kind: 'fault', code: 4135 });
  });
});

describe('HTTP surface', () => {
  it('serves the WSDL pointing at itself and the XSDs beside it; GET on the endpoint is 4135', async () => {
    const wsdl = await httpsCall(t.sim.wsdlUrl, { ca: t.ca, client: t.platform, method: 'GET' });
    expect(wsdl.status).toBe(200);
    expect(wsdl.body).toContain(`<soap:address location="${t.sim.url}"/>`);
    expect(wsdl.body).not.toContain('agenciatributaria.gob.es/wlpl');
    const xsd = await httpsCall(t.sim.wsdlUrl.replace('SistemaFacturacion.wsdl', 'SuministroInformacion.xsd'), {
      ca: t.ca,
      client: t.platform,
      method: 'GET',
    });
    expect(xsd.body).toContain('schemaLocation="xmldsig-core-schema.xsd"');
    const get = await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, method: 'GET' });
    expect(parseRegFactuReply(get.body)).toMatchObject({ kind: 'fault', code: 4135 });
  });

  it('exposes state, configure, faults and reset under /__sim', async () => {
    const base = t.sim.url.replace(/\/wlpl\/.*/, '');
    await send(freshChain(TAXPAYER, 'A', 2));
    const state = JSON.parse((await httpsCall(`${base}/__sim/state`, { ca: t.ca, client: t.platform, method: 'GET' })).body);
    expect(state.counters.registeredByNif[TAXPAYER]).toHaveLength(2);

    const configured = await httpsCall(`${base}/__sim/configure`, {
      ca: t.ca,
      client: t.platform,
      body: '{"waitSeconds": 5}',
      contentType: 'application/json',
    });
    expect(JSON.parse(configured.body).behaviour).toMatchObject({ waitSeconds: 5 });
    expect(t.sim.state.behaviour.waitSeconds).toBe(5);
    const faults = await httpsCall(`${base}/__sim/faults`, {
      ca: t.ca,
      client: t.platform,
      body: '[{"kind": "http503", "next": 2}, {"kind": "soapFault", "code": 4141, "nif": "89890001K"}]',
      contentType: 'application/json',
    });
    expect(JSON.parse(faults.body).added).toEqual([
      { id: expect.any(Number), kind: 'http503', next: 2 },
      { id: expect.any(Number), kind: 'soapFault', code: 4141, nif: '89890001K' },
    ]);
    const cleared = await httpsCall(`${base}/__sim/faults/clear`, {
      ca: t.ca,
      client: t.platform,
      body: '{"kind": "soapFault"}',
      contentType: 'application/json',
    });
    expect(JSON.parse(cleared.body)).toEqual({ cleared: 1 });
    expect(t.sim.state.faults.map((f) => f.kind)).toEqual(['http503']);
    const invalid = await httpsCall(`${base}/__sim/configure`, {
      ca: t.ca,
      client: t.platform,
      body: '{"waitSecs": 5}',
      contentType: 'application/json',
    });
    expect(invalid.status).toBe(400);

    await httpsCall(`${base}/__sim/reset`, { ca: t.ca, client: t.platform, body: '' });
    expect(t.sim.state.counters.recordsRegistered).toBe(0);
    expect(t.sim.state.faults).toEqual([]);
    expect(t.sim.state.behaviour.waitSeconds).toBe(5);
  });
});
