import { sql } from 'drizzle-orm';
import request from 'supertest';
import { createTestCa, issueCertificate, toPkcs12 } from '@vf/certificates/testing';
import { xmlsec1Verifies } from '@vf/signing/testing';
import { createSystem, invoiceBody, registerAccount, uniqueNif, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

const PASSWORD = 'p12-Secret-Pass';
const ca = createTestCa();
const holder = issueCertificate(ca, { commonName: 'CONTRIBUYENTE', nif: '89890001K', notAfter: new Date(Date.now() + 400 * 86_400_000) });
const withCertificate = { certificate_p12_base64: toPkcs12(holder, PASSWORD, ca).toString('base64'), certificate_password: PASSWORD };

let t: TestApp;
let account: TestAccount;
let systemId: string;
beforeAll(async () => {
  t = await createTestApp();
  account = await registerAccount(t.app);
  systemId = await createSystem(t.app, account, { only_supports_verifactu: false });
});
afterAll(() => t.close());

async function keptTaxpayerWith(records: number) {
  const tp = (
    await request(t.app)
      .post('/api/v1/taxpayers')
      .set(account.auth)
      .send({ nif: uniqueNif(), name: 'Contribuyente SL', ...withCertificate, operating_mode: 'no_verifactu' })
      .expect(201)
  ).body.data;
  const ids: string[] = [];
  for (let n = 0; n < records; n++) {
    ids.push((await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(tp.id, systemId)).expect(201)).body.data.id);
  }
  return { id: tp.id as string, records: ids };
}
const check = (taxpayerId: string, body: Record<string, unknown>) =>
  request(t.app).post(`/api/v1/taxpayers/${taxpayerId}/checks`).set(account.auth).send(body);
const typesOf = async (taxpayerId: string) =>
  ((await request(t.app).get(`/api/v1/taxpayers/${taxpayerId}/events`).set(account.auth).expect(200)).body.data as { type: string }[]).map(
    (e) => e.type,
  );
const alarmOf = async (taxpayerId: string) =>
  (await request(t.app).get(`/api/v1/taxpayers/${taxpayerId}`).set(account.auth).expect(200)).body.data.integrity_alarm;

describe('on-demand checks', () => {
  it('walks a sound chain of records link by link and writes the launch of the check (03)', async () => {
    const tp = await keptTaxpayerWith(3);
    const res = await check(tp.id, { subject: 'records' }).expect(200);
    expect(res.body.data).toMatchObject({ subject: 'records', from_seq: 1, to_seq: 3, checked: 3, restored: true, anomalies: [] });
    expect(res.body.data.links.map((l: { seq: number; id: string }) => [l.seq, l.id])).toEqual(tp.records.map((id, n) => [n + 1, id]));
    expect(res.body.data.links.every((l: Record<string, boolean>) => l.hash_ok && l.signature_ok && l.link_ok && l.date_ok)).toBe(true);
    expect(await typesOf(tp.id)).toEqual(['01', '03']);
    const [launch] = (await request(t.app).get(`/api/v1/taxpayers/${tp.id}/events?type=03`).set(account.auth)).body.data;
    const xml = (await request(t.app).get(launch.xml_url).set(account.auth).expect(200)).text;
    expect(xml).toContain(
      '<sf:RealizadoProcesoSobreIntegridadHuellasRegFacturacion>S</sf:RealizadoProcesoSobreIntegridadHuellasRegFacturacion>',
    );
    expect(xml).toContain('<sf:NumeroDeRegistrosFacturacionProcesadosSobreIntegridadHuellas>3<');
    expect(xmlsec1Verifies(xml, ca.certPem).ok).toBe(true);

    // With an Idempotency-Key, a retry gets the same report again and writes no second launch.
    const keyed = () => check(tp.id, { subject: 'records' }).set('Idempotency-Key', `check-${tp.id}`).expect(200);
    const first = await keyed();
    const replay = await keyed();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await typesOf(tp.id)).toEqual(['01', '03', '03']);
  });

  it('finds a record changed in the database, raises the alarm, and clears it once the whole chain is sound again', async () => {
    const tp = await keptTaxpayerWith(3);
    await t.db.db.execute(sql`UPDATE invoices SET total_amount = '999.00' WHERE id = ${tp.records[1]}`);
    const found = (await check(tp.id, { subject: 'records' }).expect(200)).body.data;
    expect(found.restored).toBe(false);
    // The signed record is kept as its signature's parts and written again from the changed row (decision 0064): its
    // signature no longer verifies either.
    expect(found.anomalies).toEqual([
      expect.objectContaining({ seq: 2, id: tp.records[1], kind: 'hash', anomaly_type: '01' }),
      expect.objectContaining({ seq: 2, id: tp.records[1], kind: 'signature', anomaly_type: '02' }),
    ]);
    expect(found.links[1]).toMatchObject({ hash_ok: false, signature_ok: false, link_ok: true });
    expect(await typesOf(tp.id)).toEqual(['01', '03', '04', '04']);
    expect(await alarmOf(tp.id)).toBe(true);
    const alarms = (await request(t.app).get(`/api/v1/taxpayers/${tp.id}/alarms`).set(account.auth).expect(200)).body.data;
    expect(alarms).toEqual(
      expect.arrayContaining([expect.objectContaining({ subject: 'records', anomaly: 'hash', record_id: tp.records[1] })]),
    );

    // A range is not the whole chain: it restores nothing.
    await t.db.db.execute(sql`UPDATE invoices SET total_amount = '121.00' WHERE id = ${tp.records[1]}`);
    expect((await check(tp.id, { subject: 'records', from_seq: 2, to_seq: 3 }).expect(200)).body.data).toMatchObject({
      checked: 2,
      restored: false,
    });
    expect(await alarmOf(tp.id)).toBe(true);
    expect((await check(tp.id, { subject: 'records' }).expect(200)).body.data.restored).toBe(true);
    expect(await alarmOf(tp.id)).toBe(false);
  });

  it('checks a chain of events, and writes an anomaly found in it as an event 06', async () => {
    const tp = await keptTaxpayerWith(1);
    expect((await check(tp.id, { subject: 'events', system_id: systemId }).expect(200)).body.data).toMatchObject({
      checked: 1,
      restored: true,
    });
    await t.db.db.execute(sql`UPDATE sif_events e SET xml = replace(xml, '<sf:IDVersion>1.0<', '<sf:IDVersion>1.1<')
      FROM event_chains ec JOIN chains c ON c.id = ec.chain_id WHERE ec.id = e.event_chain_id AND c.taxpayer_id = ${tp.id} AND e.seq = 1`);
    const found = (await check(tp.id, { subject: 'events', system_id: systemId }).expect(200)).body.data;
    expect(found.anomalies).toEqual([expect.objectContaining({ seq: 1, kind: 'signature', anomaly_type: '02' })]);
    expect(await typesOf(tp.id)).toEqual(['01', '05', '05', '06']);
  });

  it('refuses a check of events without its system', async () => {
    const tp = await keptTaxpayerWith(0);
    const res = await check(tp.id, { subject: 'events' }).expect(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'system_id' })]);
  });
});
