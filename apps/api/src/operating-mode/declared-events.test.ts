import request from 'supertest';
import { certificateSigner, declareBackupRestored } from '@vf/chain';
import { createTestCa, issueCertificate, toPkcs12 } from '@vf/certificates/testing';
import { xmlsec1Verifies } from '@vf/signing/testing';
import { validateAgainstXsd } from '@vf/xml';
import { createSystem, registerAccount, uniqueNif, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

// The events a person declares: 90 (other), recorded by the taxpayer through the API, and 07 (backup restored),
// declared by an operator (`npm run backup-restored`, which calls declareBackupRestored).

const PASSWORD = 'p12-Secret-Pass';
const ca = createTestCa();
const holder = issueCertificate(ca, { commonName: 'CONTRIBUYENTE', nif: '89890001K', notAfter: new Date(Date.now() + 400 * 86_400_000) });
const withCertificate = { certificate_p12_base64: toPkcs12(holder, PASSWORD, ca).toString('base64'), certificate_password: PASSWORD };

let t: TestApp;
let account: TestAccount;
let systemId: string;
let verifactuOnly: string;
beforeAll(async () => {
  t = await createTestApp();
  account = await registerAccount(t.app);
  systemId = await createSystem(t.app, account, { only_supports_verifactu: false, installation_number: 'DUAL-1' });
  verifactuOnly = await createSystem(t.app, account, { only_supports_verifactu: true, installation_number: 'VF-1' });
});
afterAll(() => t.close());

const keptTaxpayer = async (): Promise<string> =>
  (
    await request(t.app)
      .post('/api/v1/taxpayers')
      .set(account.auth)
      .send({ nif: uniqueNif(), name: 'Contribuyente SL', ...withCertificate, operating_mode: 'no_verifactu' })
      .expect(201)
  ).body.data.id;
const eventsOf = async (
  taxpayerId: string,
): Promise<{ id: string; type: string; seq: number; previous_hash: string | null; hash: string; xml_url: string }[]> =>
  (await request(t.app).get(`/api/v1/taxpayers/${taxpayerId}/events`).set(account.auth).expect(200)).body.data;
const xmlOf = async (url: string) => (await request(t.app).get(url).set(account.auth).expect(200)).text;
const inEnvelope = (xml: string) =>
  `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>${xml}</soapenv:Body></soapenv:Envelope>`;

describe('an event of the taxpayer’s own (90)', () => {
  it('is signed and chained after the last event, its description kept as OtrosDatosEvento', async () => {
    const id = await keptTaxpayer();
    const res = await request(t.app)
      .post(`/api/v1/taxpayers/${id}/events`)
      .set(account.auth)
      .send({ system_id: systemId, description: 'Cambio de la impresora de tickets' })
      .expect(201);
    expect(res.headers.location).toBe(`/api/v1/taxpayers/${id}/events/${res.body.data.id}`);
    const [start, other] = await eventsOf(id);
    expect(other).toMatchObject({ id: res.body.data.id, type: '90', seq: 2, previous_hash: start.hash });
    const xml = await xmlOf(other.xml_url);
    expect(xml).toContain('<sf:TipoEvento>90</sf:TipoEvento><sf:OtrosDatosEvento>Cambio de la impresora de tickets</sf:OtrosDatosEvento>');
    expect(xmlsec1Verifies(xml, ca.certPem)).toMatchObject({ ok: true });
    expect(await validateAgainstXsd(inEnvelope(xml), 'event')).toEqual({ valid: true, errors: [] });
  });

  it('is refused, writing nothing, past 100 characters, empty, or on a system that cannot keep the records', async () => {
    const id = await keptTaxpayer();
    const post = (body: object) => request(t.app).post(`/api/v1/taxpayers/${id}/events`).set(account.auth).send(body);
    const long = await post({ system_id: systemId, description: 'x'.repeat(101) }).expect(422);
    expect(long.body.errors).toEqual([expect.objectContaining({ field: 'description', code: 'too_long' })]);
    await post({ system_id: systemId, description: '   ' }).expect(422);
    expect((await post({ system_id: verifactuOnly, description: 'Algo' }).expect(404)).body.code).toBe('system_not_found');
    await request(t.app)
      .post('/api/v1/taxpayers/00000000-0000-4000-8000-000000000000/events')
      .set(account.auth)
      .send({ system_id: systemId, description: 'Algo' })
      .expect(404);
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(['01']);
  });
});

describe('a backup restored (07), declared by an operator', () => {
  it('is written on each chosen NO VERI*FACTU taxpayer’s chain of events, and on every one with none chosen', async () => {
    const [one, other] = [await keptTaxpayer(), await keptTaxpayer()];
    const signer = certificateSigner({ db: t.db.db, masterKey: t.masterKey, clock: () => new Date() });
    const chosen = await declareBackupRestored(
      t.db.db,
      { taxpayerIds: [one], note: 'Copia del 28/11 restaurada' },
      { signer, now: new Date() },
    );
    expect(chosen).toEqual({ written: 1, unsigned: [] });
    const restored = (await eventsOf(one)).at(-1)!;
    expect(restored.type).toBe('07');
    const xml = await xmlOf(restored.xml_url);
    expect(xml).toContain('<sf:TipoEvento>07</sf:TipoEvento><sf:OtrosDatosEvento>Copia del 28/11 restaurada</sf:OtrosDatosEvento>');
    expect(xmlsec1Verifies(xml, ca.certPem)).toMatchObject({ ok: true });
    expect(await validateAgainstXsd(inEnvelope(xml), 'event')).toEqual({ valid: true, errors: [] });
    expect((await eventsOf(other)).map((e) => e.type)).toEqual(['01']);

    const all = await declareBackupRestored(t.db.db, {}, { signer, now: new Date() });
    expect(all.written).toBeGreaterThanOrEqual(2);
    expect((await eventsOf(other)).map((e) => e.type)).toEqual(['01', '07']);
  });
});
