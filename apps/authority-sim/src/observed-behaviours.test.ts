import { buildConsultaRequest, parseConsultaReply, parseRegFactuReply, validateEachAgainstXsd, type ResponseLine } from '@vf/xml';
import { madridInvoiceDate } from './spain-time';
import { consultaXml } from './testing/raw-consulta';
import { altaTree, chainedTo, regFactuXml, type RawHeader } from './testing/raw-records';
import { httpsCall, PLATFORM_NIF, startTestSimulator, type HttpReply, type TestSimulator } from './testing/test-simulator';
import type { XmlTree } from './testing/xml-tree';

// Each behaviour integrators reported meeting on the real service, switched on through the admin interface over
// HTTPS as a test of the service would, globally or for one taxpayer, and switched off again.

const TAXPAYER = '89890001K';
const OTHER = '89890002E';

let t: TestSimulator;
const answers: string[] = [];

beforeAll(async () => {
  t = await startTestSimulator({ taxpayerNifs: [TAXPAYER, OTHER], behaviour: { waitSeconds: 0 } });
});
afterAll(() => t.close());
beforeEach(() => t.sim.reset());

const base = () => t.sim.url.replace(/\/wlpl\/.*/, '');
async function admin(path: string, body: unknown): Promise<unknown> {
  const reply = await httpsCall(`${base()}/__sim/${path}`, {
    ca: t.ca,
    client: t.platform,
    body: JSON.stringify(body),
    contentType: 'application/json',
  });
  if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.body}`);
  return JSON.parse(reply.body);
}
const faults = (body: unknown) => admin('faults', body);

let counter = 0;
function alta(nif = TAXPAYER, patch: XmlTree = {}, opts: { now?: Date; installation?: string } = {}): XmlTree {
  counter += 1;
  return altaTree(nif, `OBS-${counter}`, patch, { installation: opts.installation ?? `OBS-${counter}`, now: opts.now });
}
function send(records: XmlTree[], opts: { header?: RawHeader; url?: string; timeoutMs?: number } = {}): Promise<HttpReply> {
  const header = opts.header ?? { nif: String((records[0].IDFactura as XmlTree).IDEmisorFactura) };
  const body = regFactuXml(
    header,
    records.map((r) => ({ alta: r })),
  );
  return httpsCall(opts.url ?? t.sim.url, { ca: t.ca, client: t.platform, body, timeoutMs: opts.timeoutMs });
}
async function lines(reply: HttpReply): Promise<ResponseLine[]> {
  expect(reply.status).toBe(200);
  answers.push(reply.body);
  const parsed = parseRegFactuReply(reply.body);
  if (parsed.kind !== 'response') throw new Error(`expected lines, got ${parsed.message}`);
  return parsed.lines;
}
function fault(reply: HttpReply) {
  const parsed = parseRegFactuReply(reply.body);
  if (parsed.kind !== 'fault') throw new Error(`expected a fault, got ${reply.body.slice(0, 300)}`);
  return parsed;
}
const held = (record: XmlTree) => {
  const id = record.IDFactura as XmlTree;
  return t.sim.state.registry.find({
    issuerNif: String(id.IDEmisorFactura),
    invoiceNumber: String(id.NumSerieFactura),
    invoiceDate: String(id.FechaExpedicionFactura),
  });
};

describe('transport', () => {
  it('answers an outage as an HTML 503 page with x-site: Sede, registering nothing', async () => {
    await faults({ kind: 'http503', next: 1 });
    const record = alta();
    const reply = await send([record]);
    expect(reply.status).toBe(503);
    expect(reply.headers['content-type']).toBe('text/html');
    expect(reply.headers['x-site']).toBe('Sede');
    expect(reply.body).toMatch(/^<html>.*no procede de la AEAT/);
    expect(held(record)).toBeUndefined();
    expect((await lines(await send([record])))[0].state).toBe('Correcto');
  });

  it('hangs past the client’s timeout without an answer, registering nothing', async () => {
    await faults({ kind: 'hang', ms: 60_000, next: 1 });
    const record = alta();
    await expect(send([record], { timeoutMs: 300 })).rejects.toThrow(/no answer within 300 ms/);
    expect(held(record)).toBeUndefined();
    expect(t.sim.state.counters.faults.hang).toBe(1);
  });

  it('answers HTTP 500 with no body at all', async () => {
    await faults({ kind: 'http500Empty', nif: TAXPAYER, next: 1 });
    const reply = await send([alta()]);
    expect([reply.status, reply.body, reply.headers['content-length']]).toEqual([500, '', '0']);
  });
});

describe('SOAP faults', () => {
  it('answers Codigo[102] "Error interno en el servidor, Id. Error: N" on altas and on Consulta, and Codigo[20009]', async () => {
    await faults([
      { kind: 'soapFault', code: 102, operation: 'RegFactu', next: 1 },
      { kind: 'soapFault', code: 102, operation: 'Consulta', next: 1 },
      { kind: 'soapFault', code: 20009, next: 1 },
    ]);
    const internal = await send([alta()]);
    expect(internal.status).toBe(500);
    expect(fault(internal)).toMatchObject({ side: 'server', code: 102, faultCode: 'env:Server' });
    expect(fault(internal).message).toMatch(/^Codigo\[102\]\.Error interno en el servidor, Id\. Error: \d+$/);
    const query = consultaXml({ nif: TAXPAYER });
    const consulta = parseConsultaReply((await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: query })).body);
    expect(consulta).toMatchObject({ kind: 'fault', side: 'server', code: 102 });
    expect(fault(await send([alta()]))).toMatchObject({
      side: 'server',
      code: 20009,
      message: 'Codigo[20009].Error interno en el servidor',
    });
    expect(t.sim.state.counters.recordsRegistered).toBe(0);
  });

  it('answers 401 "@firma COD_066" when the certificate is not supported', async () => {
    await faults({ kind: 'soapFault', code: 401, certificateNif: PLATFORM_NIF, next: 1 });
    expect(fault(await send([alta()]))).toMatchObject({
      side: 'client',
      code: 401,
      message: 'Codigo[401].Error al llamar a @firma  COD_066 El certificado no es soportado por el sistema',
    });
  });

  it('answers 4134 and 4139 (production only), and 4141 to every request of a taxpayer until cleared', async () => {
    await faults([
      { kind: 'soapFault', code: 4134, next: 1 },
      { kind: 'soapFault', code: 4139, environment: 'production' },
      { kind: 'soapFault', code: 4141, nif: OTHER },
    ]);
    expect(fault(await send([alta()])).code).toBe(4134);
    expect(fault(await send([alta()], { url: t.sim.productionUrl })).code).toBe(4139);
    for (let i = 0; i < 2; i += 1) {
      const suspended = fault(await send([alta(OTHER, { Destinatarios: { IDDestinatario: [{ NombreRazon: 'C', NIF: TAXPAYER }] } })]));
      expect(suspended).toMatchObject({ code: 4141, side: 'client' });
      expect(suspended.message).toMatch(/suspendido temporalmente/);
    }
    expect((await lines(await send([alta()])))[0].state).toBe('Correcto');
    expect(await admin('faults/clear', { nif: OTHER })).toEqual({ cleared: 1 });
    expect(
      (await lines(await send([alta(OTHER, { Destinatarios: { IDDestinatario: [{ NombreRazon: 'C', NIF: TAXPAYER }] } })])))[0].state,
    ).toBe('Correcto');
  });

  it('answers the technical retry codes inside an HTTP 200: whole-message ones as Server faults, record ones as lines', async () => {
    for (const code of [3500, 3501, 4103, 4108, 4110, 4111, 4118, 4128]) {
      await faults({ kind: 'soapFault', code, next: 1 });
      const reply = await send([alta()]);
      expect([reply.status, fault(reply).code, fault(reply).side]).toEqual([200, code, 'server']);
    }
    for (const code of [1129, 1241, 1243, 1256, 1288]) {
      await faults({ kind: 'recordCode', code, next: 1 });
      const record = alta();
      expect((await lines(await send([record])))[0]).toMatchObject({ state: 'Incorrecto', errorCode: code });
      expect(held(record)).toBeUndefined();
    }
  });
});

describe('stored, then failed', () => {
  it('stores the record and answers a Server fault; the resend meets 3000 with the stored state; Consulta returns it', async () => {
    await faults({ kind: 'storedThenFailed', nif: TAXPAYER, next: 1 });
    const record = alta(TAXPAYER, { Huella: 'A'.repeat(64) });
    const first = await send([record]);
    expect(fault(first)).toMatchObject({ side: 'server', code: 102 });
    expect(held(record)).toMatchObject({ state: 'AceptadoConErrores', errorCode: 2000 });
    const resend = (await lines(await send([record])))[0];
    expect(resend).toMatchObject({
      state: 'Incorrecto',
      errorCode: 3000,
      duplicate: { requestId: held(record)!.requestId, state: 'AceptadaConErrores', errorCode: 2000 },
    });
    const [, month, year] = madridInvoiceDate(new Date()).split('-');
    const id = record.IDFactura as XmlTree;
    const query = buildConsultaRequest({
      obligado: { name: 'X', nif: TAXPAYER },
      period: { year, month },
      invoiceNumber: String(id.NumSerieFactura),
    });
    const consulta = parseConsultaReply((await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: query })).body);
    expect(consulta.kind === 'consulta' && consulta.records).toEqual([
      expect.objectContaining({ state: 'AceptadoConErrores', errorCode: 2000, data: expect.objectContaining({ hash: 'A'.repeat(64) }) }),
    ]);
  });

  it('leaves a message it refused alone: the fault waits for a send whose records were processed', async () => {
    await faults({ kind: 'storedThenFailed', next: 1 });
    expect(fault(await send([alta()], { header: { nif: '89890001A' } })).code).toBe(4116);
    const record = alta();
    expect(fault(await send([record])).code).toBe(102);
    expect(held(record)?.state).toBe('Correcto');
  });

  it('answers 3000 without RegistroDuplicado when told to, for one taxpayer', async () => {
    const record = alta();
    await send([record]);
    await faults({ kind: 'duplicateWithoutDetail', nif: TAXPAYER, next: 1 });
    const bare = (await lines(await send([record])))[0];
    expect(bare).toMatchObject({ errorCode: 3000 });
    expect(bare.duplicate).toBeUndefined();
    expect((await lines(await send([record])))[0].duplicate).toMatchObject({ state: 'Correcta' });
  });
});

describe('Consulta', () => {
  it('refuses a SistemaInformatico filter whose fields are not in the SuministroInformacion namespace: 4102 … NombreRazon', async () => {
    const misplaced = {
      'con:SistemaInformatico': {
        'con:NombreRazon': 'PRODUCTORA',
        'con:NIF': 'B63272603',
        'con:IdSistemaInformatico': 'F1',
        'con:NumeroInstalacion': '1',
      },
    };
    const reply = await httpsCall(t.sim.url, { ca: t.ca, client: t.platform, body: consultaXml({ nif: TAXPAYER, filter: misplaced }) });
    expect(parseConsultaReply(reply.body)).toMatchObject({
      kind: 'fault',
      code: 4102,
      message: 'Codigo[4102].El XML no cumple el esquema. Falta informar campo obligatorio.: NombreRazon',
    });
  });
});

describe('records', () => {
  it('moves the authority’s clock: 2004 beyond 240 s, the Date header and TimestampPresentacion follow; reset puts it back', async () => {
    await admin('configure', { clockOffsetSeconds: 600 });
    const reply = await send([alta()]);
    expect(Math.abs(Date.parse(String(reply.headers.date)) - (Date.now() + 600_000))).toBeLessThan(5_000);
    const parsed = parseRegFactuReply(reply.body);
    expect(parsed.kind === 'response' && Math.abs(Date.parse(parsed.presentedAt!) - (Date.now() + 600_000))).toBeLessThan(5_000);
    const [line] = await lines(reply);
    expect(line).toMatchObject({ state: 'AceptadoConErrores', errorCode: 2004 });
    expect(line.errorDescription).toMatch(/margen de error de: 240 segundos$/);
    await admin('reset', {});
    expect(t.sim.state.behaviour.clockOffsetSeconds).toBe(0);
    expect((await lines(await send([alta()])))[0].state).toBe('Correcto');
  });

  it('refuses FechaHoraHusoGenRegistro with fractions, +02:00:00 or +0200 (1244); accepts Z and +00:00 hashed as written', async () => {
    const now = new Date();
    const utc = now.toISOString().slice(0, 19);
    const records = [`${utc}.123Z`, `${utc}+00:00:00`, `${utc}+0000`, `${utc}Z`, `${utc}+00:00`].map((generated) =>
      alta(TAXPAYER, { FechaHoraHusoGenRegistro: generated }),
    );
    const answered = await lines(await send(records));
    expect(answered.map((l) => [l.state, l.errorCode])).toEqual([
      ['Incorrecto', 1244],
      ['Incorrecto', 1244],
      ['Incorrecto', 1244],
      ['Correcto', undefined],
      ['Correcto', undefined],
    ]);
  });

  it('stores a wrong huella as AceptadoConErrores 2000 and flags PrimerRegistro on an existing chain with 2007', async () => {
    const first = alta(TAXPAYER, {}, { installation: 'CHAIN' });
    const wrong = alta(TAXPAYER, { Encadenamiento: chainedTo(first), Huella: 'F'.repeat(64) }, { installation: 'CHAIN' });
    const restart = alta(TAXPAYER, {}, { installation: 'CHAIN' });
    const answered = await lines(await send([first, wrong, restart]));
    expect(answered.map((l) => [l.state, l.errorCode])).toEqual([
      ['Correcto', undefined],
      ['AceptadoConErrores', 2000],
      ['AceptadoConErrores', 2007],
    ]);
    expect(held(wrong)).toMatchObject({ state: 'AceptadoConErrores', errorCode: 2000 });
  });

  it('injects 2007 or 1244 for one taxpayer’s next records, at the code’s level', async () => {
    await faults([
      { kind: 'recordCode', code: 2007, nif: TAXPAYER, next: 1 },
      { kind: 'recordCode', code: 1244, nif: TAXPAYER, next: 1 },
    ]);
    const [stored, refused, normal] = [alta(), alta(), alta()];
    expect((await lines(await send([stored, refused, normal]))).map((l) => [l.state, l.errorCode])).toEqual([
      ['AceptadoConErrores', 2007],
      ['Incorrecto', 1244],
      ['Correcto', undefined],
    ]);
    expect([held(stored)?.state, held(refused)]).toEqual(['AceptadoConErrores', undefined]);
  });

  it('switches rule sets: a previous huella equal to the record’s own is 2008 now, 1278 under the previous rules', async () => {
    const huella = 'C'.repeat(64);
    const same = () =>
      alta(TAXPAYER, {
        Huella: huella,
        Encadenamiento: {
          RegistroAnterior: {
            IDEmisorFactura: TAXPAYER,
            NumSerieFactura: 'X',
            FechaExpedicionFactura: madridInvoiceDate(new Date()),
            Huella: huella,
          },
        },
      });
    expect((await lines(await send([same()])))[0]).toMatchObject({ state: 'AceptadoConErrores', errorCode: 2008 });
    await admin('configure', { ruleSet: 'previous' });
    try {
      expect((await lines(await send([same()])))[0]).toMatchObject({ state: 'Incorrecto', errorCode: 1278 });
    } finally {
      await admin('configure', { ruleSet: 'current' });
    }
  });

  it('keeps a fault for one taxpayer away from another, and reset switches every fault off', async () => {
    await faults({ kind: 'recordCode', code: 1100, nif: OTHER });
    const mine = alta();
    expect((await lines(await send([mine])))[0].state).toBe('Correcto');
    expect(t.sim.state.faults).toHaveLength(1);
    await admin('reset', {});
    expect(t.sim.state.faults).toEqual([]);
  });
});

test('every answer with lines is valid against the authority’s response schema', async () => {
  expect(answers.length).toBeGreaterThan(10);
  const verdicts = await validateEachAgainstXsd(answers, 'response');
  expect(verdicts.filter((v) => !v.valid)).toEqual([]);
});
