import { sql } from 'drizzle-orm';
import request from 'supertest';
import { madridToday } from '@vf/core';
import { signedRecordStore, submissionBatchStore } from '@vf/db';
import { createTestCa, issueCertificate, toPkcs12 } from '@vf/certificates/testing';
import { xmlsec1Verifies } from '@vf/signing/testing';
import { createSystem, invoiceBody, registerAccount, uniqueNif, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

const DAY = 86_400_000;
const PASSWORD = 'p12-Secret-Pass';
const ca = createTestCa();
const holder = issueCertificate(ca, { commonName: 'CONTRIBUYENTE', nif: '89890001K', notAfter: new Date(Date.now() + 800 * DAY) });
const p12Base64 = toPkcs12(holder, PASSWORD, ca).toString('base64');
const withCertificate = { certificate_p12_base64: p12Base64, certificate_password: PASSWORD };

let t: TestApp;
let account: TestAccount;
let bothWays: string;
let verifactuOnly: string;
// The API's clock: moved forward to see a declared end of VERI*FACTU take effect.
let now = new Date();
beforeAll(async () => {
  t = await createTestApp({ clock: () => now });
  account = await registerAccount(t.app);
  bothWays = await createSystem(t.app, account, { only_supports_verifactu: false, supports_multiple_taxpayers: true });
  verifactuOnly = await createSystem(t.app, account, { only_supports_verifactu: true, supports_multiple_taxpayers: true, name: 'Solo VF' });
});
afterAll(() => t.close());
afterEach(() => (now = new Date()));

const createTaxpayer = (body: Record<string, unknown>) =>
  request(t.app)
    .post('/api/v1/taxpayers')
    .set(account.auth)
    .send({ nif: uniqueNif(), name: 'Contribuyente SL', ...body });
const changeMode = (id: string, mode: string) =>
  request(t.app).put(`/api/v1/taxpayers/${id}`).set(account.auth).send({ operating_mode: mode }).expect(200);
const register = (taxpayerId: string, systemId = bothWays, overrides: Record<string, unknown> = {}) =>
  request(t.app)
    .post('/api/v1/invoices')
    .set(account.auth)
    .send(invoiceBody(taxpayerId, systemId, overrides));
const signedXmlOf = (res: request.Response) => Buffer.from(res.body.data.signed_record.xml_base64, 'base64').toString('utf8');

describe('both modes side by side', () => {
  it('sends a VERI*FACTU record and keeps a NO VERI*FACTU one, signed when registered', async () => {
    const vf = (await createTaxpayer({}).expect(201)).body.data;
    const nvf = (await createTaxpayer({ ...withCertificate, operating_mode: 'no_verifactu' }).expect(201)).body.data;
    expect(vf).toMatchObject({ operating_mode: 'verifactu', verifactu_ends_on: null, integrity_alarm: false });
    expect(nvf).toMatchObject({ operating_mode: 'no_verifactu', verifactu_ends_on: null, integrity_alarm: false });

    const sent = (await register(vf.id).expect(201)).body;
    expect(sent.data).toMatchObject({ authority_status: 'queued', operating_mode: 'verifactu', signed_record: null });
    expect(sent.data.qr_url).toMatch(/^https:\/\/prewww2\.aeat\.es\/wlpl\/TIKE-CONT\/ValidarQR\?nif=/);

    const kept = (await register(nvf.id).expect(201)).body;
    expect(kept.data).toMatchObject({ authority_status: 'kept', operating_mode: 'no_verifactu' });
    expect(kept.message).toMatch(/signed and kept/);
    expect(kept.data.qr_url).toMatch(/^https:\/\/prewww2\.aeat\.es\/wlpl\/TIKE-CONT\/ValidarQRNoVerifactu\?nif=/);
    const xml = signedXmlOf({ body: kept } as request.Response);
    expect(xml).toContain('<sum1:TipoUsoPosibleSoloVerifactu>N</sum1:TipoUsoPosibleSoloVerifactu>');
    expect(xml).toContain(`<sum1:Huella>${kept.data.hash}</sum1:Huella>`);
    expect(xmlsec1Verifies(xml, ca.certPem)).toMatchObject({ ok: true });
    // Changing one literal breaks it: the verification is real.
    expect(xmlsec1Verifies(xml.replace('<sum1:ImporteTotal>121.00<', '<sum1:ImporteTotal>121.0<'), ca.certPem).ok).toBe(false);

    // Kept as signed: the record's XML is those very bytes, and the invoice stays kept (no worker sends it).
    const stored = await request(t.app).get(kept.data.signed_record.url).set(account.auth).expect(200);
    expect(stored.text).toBe(xml);
    const invoice = await request(t.app).get(`/api/v1/invoices/${kept.data.id}`).set(account.auth).expect(200);
    expect(invoice.body.data.authority_status).toBe('kept');
    // What a worker's sender reads of each chain: the VERI*FACTU record waits, the kept one is never there.
    const chainOf = async (id: string) =>
      ((await t.db.db.execute(sql`SELECT chain_id FROM invoices WHERE id = ${id}`)).rows[0] as { chain_id: string }).chain_id;
    expect((await submissionBatchStore.load(t.db.db, await chainOf(sent.data.id), 1000)).map((r) => r.id)).toEqual([sent.data.id]);
    expect(await submissionBatchStore.chainHasWork(t.db.db, await chainOf(kept.data.id))).toBe(false);
  });

  it('signs every item of a batch, each chained to the one before', async () => {
    const nvf = (await createTaxpayer({ ...withCertificate, operating_mode: 'no_verifactu' }).expect(201)).body.data;
    const items = [0, 1, 2].map(() => invoiceBody(nvf.id, bothWays));
    const res = await request(t.app).post('/api/v1/invoices/batch').set(account.auth).send(items).expect(201);
    const results = res.body.results as { status: number; data: Record<string, any> }[];
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    results.forEach((r, n) => {
      const xml = Buffer.from(r.data.signed_record.xml_base64, 'base64').toString('utf8');
      expect(xmlsec1Verifies(xml, ca.certPem).ok).toBe(true);
      if (n > 0) expect(xml).toContain(`<sum1:Huella>${results[n - 1].data.hash}</sum1:Huella>`);
    });
  });

  it('signs a cancellation of a kept invoice and keeps it too', async () => {
    const nvf = (await createTaxpayer({ ...withCertificate, operating_mode: 'no_verifactu' }).expect(201)).body.data;
    const registered = (await register(nvf.id).expect(201)).body.data;
    const cancelled = await request(t.app).post(`/api/v1/invoices/${registered.id}/cancel`).set(account.auth).send({}).expect(201);
    const record = cancelled.body.data;
    expect(record).toMatchObject({ record_type: 'cancellation', authority_status: 'kept' });
    const xml = await request(t.app).get(`/api/v1/invoices/${registered.id}/records/${record.id}/xml`).set(account.auth).expect(200);
    expect(xml.text).toContain('RegistroAnulacion');
    expect(xmlsec1Verifies(xml.text, ca.certPem).ok).toBe(true);
  });
});

describe('refusals', () => {
  it('refuses a NO VERI*FACTU record on a system that can only work as VERI*FACTU, storing nothing', async () => {
    const nvf = (await createTaxpayer({ ...withCertificate, operating_mode: 'no_verifactu' }).expect(201)).body.data;
    const res = await register(nvf.id, verifactuOnly).expect(409);
    expect(res.body.code).toBe('system_verifactu_only');
    const taxpayer = await request(t.app).get(`/api/v1/taxpayers/${nvf.id}`).set(account.auth).expect(200);
    expect(taxpayer.body.data.chain.total_records).toBe(0);
  });

  it('refuses to start NO VERI*FACTU when no certificate can sign, and creates nothing', async () => {
    const nif = uniqueNif();
    const res = await createTaxpayer({ nif, operating_mode: 'no_verifactu' }).expect(409);
    expect(res.body.code).toBe('signing_certificate_unusable');
    const list = await request(t.app).get('/api/v1/taxpayers?limit=100').set(account.auth).expect(200);
    expect(list.body.data.map((x: { nif: string }) => x.nif)).not.toContain(nif);
  });

  it('refuses a mode that does not exist', async () => {
    const res = await createTaxpayer({ operating_mode: 'mixed' }).expect(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'operating_mode' })]);
  });
});

describe('changing mode', () => {
  it('starts NO VERI*FACTU at once while VERI*FACTU was never used, and VERI*FACTU at any time', async () => {
    const tp = (await createTaxpayer(withCertificate).expect(201)).body.data;
    expect((await changeMode(tp.id, 'no_verifactu')).body.data.operating_mode).toBe('no_verifactu');
    await register(tp.id).expect(201);
    const back = await changeMode(tp.id, 'verifactu');
    expect(back.body.data).toMatchObject({ operating_mode: 'verifactu', verifactu_ends_on: null });
    expect((await register(tp.id).expect(201)).body.data.authority_status).toBe('queued');
  });

  it('takes back a declared end before it takes effect', async () => {
    const tp = (await createTaxpayer(withCertificate).expect(201)).body.data;
    await register(tp.id).expect(201);
    await changeMode(tp.id, 'no_verifactu');
    const withdrawn = await changeMode(tp.id, 'verifactu');
    expect(withdrawn.body.data).toMatchObject({ operating_mode: 'verifactu', verifactu_ends_on: null });
  });
});

describe('the check before each NO VERI*FACTU record', () => {
  async function keptTaxpayer() {
    const tp = (await createTaxpayer({ ...withCertificate, operating_mode: 'no_verifactu' }).expect(201)).body.data;
    const first = (await register(tp.id).expect(201)).body.data;
    return { tp, first };
  }
  const alarmOf = async (id: string) =>
    (await request(t.app).get(`/api/v1/taxpayers/${id}`).set(account.auth).expect(200)).body.data.integrity_alarm;

  it('raises the alarm when the last record was tampered with in the database, and keeps it', async () => {
    const { tp, first } = await keptTaxpayer();
    await t.db.db.execute(sql`UPDATE invoices SET total_amount = '999.00' WHERE id = ${first.id}`);
    expect(await alarmOf(tp.id)).toBe(false);
    await register(tp.id).expect(201);
    expect(await alarmOf(tp.id)).toBe(true);
    // The next record finds a sound head, and the alarm stays until integrity is restored.
    await register(tp.id).expect(201);
    expect(await alarmOf(tp.id)).toBe(true);
    const { rows } = await t.db.db.execute(
      sql`SELECT anomaly, record_id FROM integrity_alarms a JOIN chains c ON c.id = a.chain_id WHERE c.taxpayer_id = ${tp.id}`,
    );
    expect(rows).toEqual([{ anomaly: 'hash', record_id: first.id }]);
  });

  it('raises it for a signature that no longer verifies, and for a time more than a minute ahead', async () => {
    const signature = await keptTaxpayer();
    // Written back as a row kept before packing holds it (as text), where a database edit can reach it.
    const kept = (await signedRecordStore.of(t.db.db, [signature.first.id])).get(signature.first.id) ?? '';
    const tampered = kept.replace(/(<ds:SignatureValue[^>]*>)[A-Za-z0-9+/]{4}/, '$1AAAA');
    expect(tampered).not.toBe(kept);
    await t.db.db.execute(
      sql`UPDATE signed_records SET xml = ${tampered}, packed = NULL, certificate_id = NULL, form = NULL, signature_value = NULL, signing_time = NULL, signature_id = NULL WHERE invoice_id = ${signature.first.id}`,
    );
    await register(signature.tp.id).expect(201);
    expect(await alarmOf(signature.tp.id)).toBe(true);

    const ahead = await keptTaxpayer();
    await t.db.db.execute(sql`UPDATE invoices SET generated_at = now() + interval '5 minutes' WHERE id = ${ahead.first.id}`);
    await register(ahead.tp.id).expect(201);
    expect(await alarmOf(ahead.tp.id)).toBe(true);
  });
});

// Last: the clock moved to next year leaves the account's quota in that month.
describe('the end of the year', () => {
  it('keeps VERI*FACTU once used until 31 December: leaving it is declared, effective on 1 January', async () => {
    const tp = (await createTaxpayer(withCertificate).expect(201)).body.data;
    await register(tp.id).expect(201);
    const year = madridToday(now).slice(0, 4);
    const declared = await changeMode(tp.id, 'no_verifactu');
    expect(declared.body.data).toMatchObject({ operating_mode: 'verifactu', verifactu_ends_on: `${year}-12-31` });
    expect((await register(tp.id).expect(201)).body.data.authority_status).toBe('queued');
    // Declared twice: still the same end.
    expect((await changeMode(tp.id, 'no_verifactu')).body.data.verifactu_ends_on).toBe(`${year}-12-31`);

    now = new Date(`${Number(year) + 1}-01-01T00:00:30+01:00`);
    const read = await request(t.app).get(`/api/v1/taxpayers/${tp.id}`).set(account.auth).expect(200);
    expect(read.body.data).toMatchObject({ operating_mode: 'no_verifactu' });
    const kept = await register(tp.id, bothWays, { invoice_date: `${Number(year) + 1}-01-01` }).expect(201);
    expect(kept.body.data.authority_status).toBe('kept');
    expect(xmlsec1Verifies(signedXmlOf(kept), ca.certPem).ok).toBe(true);
  });
});
