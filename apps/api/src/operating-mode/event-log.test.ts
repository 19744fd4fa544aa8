import { sql } from 'drizzle-orm';
import request from 'supertest';
import { computeEventHash, type EventType } from '@vf/core';
import { createTestCa, issueCertificate, toPkcs12 } from '@vf/certificates/testing';
import { xmlsec1Verifies } from '@vf/signing/testing';
import { validateAgainstXsd } from '@vf/xml';
import { createSystem, invoiceBody, registerAccount, uniqueNif, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

const PASSWORD = 'p12-Secret-Pass';
const ca = createTestCa();
const holder = issueCertificate(ca, { commonName: 'CONTRIBUYENTE', nif: '89890001K', notAfter: new Date(Date.now() + 400 * 86_400_000) });
const withCertificate = { certificate_p12_base64: toPkcs12(holder, PASSWORD, ca).toString('base64'), certificate_password: PASSWORD };
const SYSTEM = { vendor_name: 'Software Vendor SL', vendor_nif: 'B85905495', version: '1.0.0', installation_number: 'INST-1' };

let t: TestApp;
let account: TestAccount;
let systemId: string;
beforeAll(async () => {
  t = await createTestApp();
  account = await registerAccount(t.app);
  systemId = await createSystem(t.app, account, { ...SYSTEM, only_supports_verifactu: false });
});
afterAll(() => t.close());

interface EventView {
  id: string;
  system_id: string;
  seq: number;
  type: EventType;
  generated_at: string;
  hash: string;
  previous_hash: string | null;
  xml_url: string;
}

const eventsOf = async (taxpayerId: string, query = ''): Promise<EventView[]> =>
  (await request(t.app).get(`/api/v1/taxpayers/${taxpayerId}/events${query}`).set(account.auth).expect(200)).body.data;
const xmlOf = async (e: EventView) => (await request(t.app).get(e.xml_url).set(account.auth).expect(200)).text;
const keptTaxpayer = async () =>
  (
    await request(t.app)
      .post('/api/v1/taxpayers')
      .set(account.auth)
      .send({ nif: uniqueNif(), name: 'Contribuyente SL', ...withCertificate, operating_mode: 'no_verifactu' })
      .expect(201)
  ).body.data as { id: string; nif: string };

describe('the event log', () => {
  it('writes the start of NO VERI*FACTU as a signed, hashed RegistroEvento the schema accepts', async () => {
    const tp = await keptTaxpayer();
    const [start] = await eventsOf(tp.id);
    expect(start).toMatchObject({ system_id: systemId, seq: 1, type: '01', previous_hash: null });
    const xml = await xmlOf(start);
    expect(xml).toContain('<sf:PrimerEvento>S</sf:PrimerEvento>');
    expect(xml).toContain(`<sf:HuellaEvento>${start.hash}</sf:HuellaEvento><ds:Signature `);
    expect(xmlsec1Verifies(xml, ca.certPem)).toMatchObject({ ok: true });
    const envelope = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>${xml}</soapenv:Body></soapenv:Envelope>`;
    expect(await validateAgainstXsd(envelope, 'event')).toEqual({ valid: true, errors: [] });
    // The huella, recomputed from the hash specification's fields.
    const system = { NIF: SYSTEM.vendor_nif, IdSistemaInformatico: xml.match(/IdSistemaInformatico>([^<]*)</)![1], Version: '1.0.0' };
    expect(
      computeEventHash({
        system: { ...system, NumeroInstalacion: SYSTEM.installation_number },
        issuerNif: tp.nif,
        type: '01',
        generatedAt: start.generated_at,
      }),
    ).toBe(start.hash);
  });

  it('chains each event to the one before, ends with 02 when VERI*FACTU starts, and walks both ways', async () => {
    const tp = await keptTaxpayer();
    await request(t.app).put(`/api/v1/taxpayers/${tp.id}`).set(account.auth).send({ operating_mode: 'verifactu' }).expect(200);
    const forwards = await eventsOf(tp.id);
    expect(forwards.map((e) => [e.seq, e.type])).toEqual([
      [1, '01'],
      [2, '02'],
    ]);
    expect(forwards[1].previous_hash).toBe(forwards[0].hash);
    const second = await xmlOf(forwards[1]);
    expect(second).toContain(
      `<sf:EventoAnterior><sf:TipoEvento>01</sf:TipoEvento><sf:FechaHoraHusoGenEvento>${forwards[0].generated_at}</sf:FechaHoraHusoGenEvento><sf:HuellaEvento>${forwards[0].hash}</sf:HuellaEvento></sf:EventoAnterior>`,
    );
    expect(xmlsec1Verifies(second, ca.certPem).ok).toBe(true);
    expect((await eventsOf(tp.id, '?order=desc')).map((e) => e.seq)).toEqual([2, 1]);
    expect((await eventsOf(tp.id, '?after_seq=1')).map((e) => e.seq)).toEqual([2]);
    expect((await eventsOf(tp.id, '?type=02')).map((e) => e.seq)).toEqual([2]);
  });

  it('writes an anomaly found before a record as an event 04 naming the record', async () => {
    const tp = await keptTaxpayer();
    const first = (await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(tp.id, systemId)).expect(201)).body
      .data;
    await t.db.db.execute(sql`UPDATE invoices SET total_amount = '999.00' WHERE id = ${first.id}`);
    await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(tp.id, systemId)).expect(201);
    const [anomaly] = await eventsOf(tp.id, '?type=04');
    const xml = await xmlOf(anomaly);
    expect(xml).toContain('<sf:DeteccionAnomaliasRegFacturacion><sf:TipoAnomalia>01</sf:TipoAnomalia>');
    expect(xml).toContain(`<sf:NumSerieFactura>${first.invoice_number}</sf:NumSerieFactura>`);
    expect(xmlsec1Verifies(xml, ca.certPem).ok).toBe(true);
  });

  it('answers 404 for another account’s taxpayer or an unknown event', async () => {
    const tp = await keptTaxpayer();
    const stranger = await registerAccount(t.app, 'Stranger');
    await request(t.app).get(`/api/v1/taxpayers/${tp.id}/events`).set(stranger.auth).expect(404);
    const res = await request(t.app).get(`/api/v1/taxpayers/${tp.id}/events/00000000-0000-4000-8000-000000000000`).set(account.auth);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('event_not_found');
  });
});
