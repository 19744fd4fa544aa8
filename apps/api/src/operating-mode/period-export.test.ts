import { createHash } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import request from 'supertest';
import { createTestCa, issueCertificate, toPkcs12 } from '@vf/certificates/testing';
import { xmlsec1Verifies } from '@vf/signing/testing';
import { createSystem, invoiceBody, registerAccount, uniqueNif, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

const PASSWORD = 'p12-Secret-Pass';
const ca = createTestCa();
const holder = issueCertificate(ca, { commonName: 'CONTRIBUYENTE', nif: '89890001K', notAfter: new Date(Date.now() + 400 * 86_400_000) });
const withCertificate = { certificate_p12_base64: toPkcs12(holder, PASSWORD, ca).toString('base64'), certificate_password: PASSWORD };
const HOUR = 3_600_000;

let t: TestApp;
let account: TestAccount;
let systemId: string;
beforeAll(async () => {
  t = await createTestApp();
  account = await registerAccount(t.app);
  systemId = await createSystem(t.app, account, { only_supports_verifactu: false });
});
afterAll(() => t.close());

const binary = (res: request.Response, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};
const around = () => ({ from: new Date(Date.now() - HOUR).toISOString(), to: new Date(Date.now() + HOUR).toISOString() });
const exportOf = (taxpayerId: string, body: Record<string, unknown>) =>
  request(t.app).post(`/api/v1/taxpayers/${taxpayerId}/exports`).set(account.auth).send(body).buffer(true).parse(binary);

async function keptTaxpayerWith(records: number) {
  const tp = (
    await request(t.app)
      .post('/api/v1/taxpayers')
      .set(account.auth)
      .send({ nif: uniqueNif(), name: 'Contribuyente SL', ...withCertificate, operating_mode: 'no_verifactu' })
      .expect(201)
  ).body.data;
  const registered: { id: string; invoice_number: string }[] = [];
  for (let n = 0; n < records; n++) {
    registered.push(
      (await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(tp.id, systemId)).expect(201)).body.data,
    );
  }
  return { id: tp.id as string, registered };
}

describe('exports', () => {
  it('copies a period’s records exactly as signed, with an index, and writes the export’s event (08)', async () => {
    const tp = await keptTaxpayerWith(2);
    const res = await exportOf(tp.id, { subject: 'records', ...around() }).expect(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(res.body as Buffer));
    const [header, ...rows] = strFromU8(files['indice.csv']).trim().split('\r\n');
    expect(header).toBe('orden;id;tipo;num_serie;fecha_expedicion;fecha_hora_generacion;huella;firmado;fichero;sha256');
    expect(rows).toHaveLength(2);
    for (const [n, row] of rows.entries()) {
      const [seq, id, kind, number, , , , signed, file, digest] = row.split(';');
      expect([seq, id, kind, number, signed]).toEqual([String(n + 1), tp.registered[n].id, 'alta', tp.registered[n].invoice_number, 'S']);
      const stored = (await request(t.app).get(`/api/v1/invoices/${id}/records/${id}/xml`).set(account.auth).expect(200)).text;
      const copy = strFromU8(files[file]);
      expect(copy).toBe(stored);
      expect(createHash('sha256').update(copy).digest('hex')).toBe(digest);
      expect(xmlsec1Verifies(copy, ca.certPem).ok).toBe(true);
    }
    const [eventFile] = Object.keys(files).filter((f) => f.startsWith('evento-exportacion-'));
    const event = strFromU8(files[eventFile]);
    expect(event).toContain('<sf:TipoEvento>08</sf:TipoEvento><sf:DatosPropiosEvento><sf:ExportacionRegFacturacionPeriodo>');
    expect(event).toContain('<sf:NumeroDeRegistrosFacturacionAltaExportados>2</sf:NumeroDeRegistrosFacturacionAltaExportados>');
    expect(event).toContain('<sf:RegistrosFacturacionExportadosDejanDeConservarse>N<');
    expect(xmlsec1Verifies(event, ca.certPem).ok).toBe(true);
    const logged = (await request(t.app).get(`/api/v1/taxpayers/${tp.id}/events?type=08`).set(account.auth).expect(200)).body.data;
    expect(logged).toHaveLength(1);
  });

  it('copies a system’s events and writes an event 09', async () => {
    const tp = await keptTaxpayerWith(1);
    const res = await exportOf(tp.id, { subject: 'events', system_id: systemId, ...around() }).expect(200);
    const files = unzipSync(new Uint8Array(res.body as Buffer));
    expect(Object.keys(files).filter((f) => f.startsWith('eventos/'))).toEqual([expect.stringMatching(/^eventos\/0000001-01-/)]);
    const [eventFile] = Object.keys(files).filter((f) => f.startsWith('evento-exportacion-'));
    expect(strFromU8(files[eventFile])).toContain('<sf:NumeroDeRegEventoExportados>1</sf:NumeroDeRegEventoExportados>');
  });

  it('answers a retry with its Idempotency-Key 409 export_already_made, naming its event, and writes no second one', async () => {
    const tp = await keptTaxpayerWith(1);
    const body = { subject: 'records', ...around() };
    const key = `export-${tp.id}`;
    const res = await exportOf(tp.id, body).set('Idempotency-Key', key).expect(200);
    const [eventFile] = Object.keys(unzipSync(new Uint8Array(res.body as Buffer))).filter((f) => f.startsWith('evento-exportacion-'));
    const again = await request(t.app).post(`/api/v1/taxpayers/${tp.id}/exports`).set(account.auth).set('Idempotency-Key', key).send(body);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'export_already_made', event_ids: [eventFile.slice('evento-exportacion-'.length, -4)] });
    const logged = (await request(t.app).get(`/api/v1/taxpayers/${tp.id}/events?type=08`).set(account.auth).expect(200)).body.data;
    expect(logged).toHaveLength(1);
  });

  it('refuses a period with nothing in it, writing no event', async () => {
    const tp = await keptTaxpayerWith(0);
    const res = await request(t.app)
      .post(`/api/v1/taxpayers/${tp.id}/exports`)
      .set(account.auth)
      .send({ subject: 'records', from: '2020-01-01T00:00:00Z', to: '2020-02-01T00:00:00Z' })
      .expect(422);
    expect(res.body.code).toBe('export_period_empty');
    const types = (await request(t.app).get(`/api/v1/taxpayers/${tp.id}/events`).set(account.auth)).body.data.map(
      (e: { type: string }) => e.type,
    );
    expect(types).toEqual(['01']);
  });
});
