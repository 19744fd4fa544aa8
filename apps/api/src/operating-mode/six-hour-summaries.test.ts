import { sql } from 'drizzle-orm';
import request from 'supertest';
import { certificateSigner, periodEndAfter, SUMMARY_PERIOD_MS, writeDueSummaries } from '@vf/chain';
import { createTestCa, issueCertificate, toPkcs12 } from '@vf/certificates/testing';
import { xmlsec1Verifies } from '@vf/signing/testing';
import { validateAgainstXsd } from '@vf/xml';
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

/** A worker of the fleet: its own signer (its own certificate cache), the shared database, a clock of the test's. */
const worker = () => certificateSigner({ db: t.db.db, masterKey: t.masterKey, clock: () => new Date() });
const sweep = (at: Date, shutdown = false) => writeDueSummaries(t.db.db, { signer: worker(), now: at, shutdown });

interface SummaryRow {
  period_start: Date;
  period_end: Date;
  xml: string;
}
async function summariesOf(taxpayerId: string): Promise<SummaryRow[]> {
  const { rows } = await t.db.db.execute(sql`SELECT e.period_start, e.period_end, e.xml FROM sif_events e
    JOIN event_chains ec ON ec.id = e.event_chain_id JOIN chains c ON c.id = ec.chain_id
    WHERE c.taxpayer_id = ${taxpayerId} AND e.event_type = '10' ORDER BY e.seq`);
  return (rows as { period_start: string; period_end: string; xml: string }[]).map((r) => ({
    period_start: new Date(r.period_start),
    period_end: new Date(r.period_end),
    xml: r.xml,
  }));
}

async function keptTaxpayer(): Promise<{ id: string; started: Date }> {
  const tp = (
    await request(t.app)
      .post('/api/v1/taxpayers')
      .set(account.auth)
      .send({ nif: uniqueNif(), name: 'Contribuyente SL', ...withCertificate, operating_mode: 'no_verifactu' })
      .expect(201)
  ).body.data;
  const [start] = (await request(t.app).get(`/api/v1/taxpayers/${tp.id}/events`).set(account.auth).expect(200)).body.data;
  return { id: tp.id, started: new Date(Math.floor(Date.parse(start.generated_at) / 1000) * 1000) };
}

/** Every summary starts where the one before ended, the first where operation started: no period twice, none missed. */
function expectContiguous(rows: SummaryRow[], started: Date): void {
  let from = started;
  for (const r of rows) {
    expect(r.period_start.toISOString()).toBe(from.toISOString());
    expect(r.period_end.getTime()).toBeGreaterThan(r.period_start.getTime());
    expect(r.period_end.getTime() - r.period_start.getTime()).toBeLessThanOrEqual(SUMMARY_PERIOD_MS);
    from = r.period_end;
  }
}

describe('six-hour summaries', () => {
  it('are written once per period by several workers sweeping at once, and say what the period held', async () => {
    const tp = await keptTaxpayer();
    await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(tp.id, systemId)).expect(201);
    await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(tp.id, systemId)).expect(201);
    // Nothing is due before the first period ends.
    await Promise.all([sweep(new Date()), sweep(new Date())]);
    expect(await summariesOf(tp.id)).toEqual([]);

    const later = new Date(periodEndAfter(tp.started).getTime() + 1000);
    await Promise.all([1, 2, 3, 4].map(() => sweep(later)));
    const [summary, ...more] = await summariesOf(tp.id);
    expect(more).toEqual([]);
    expect(summary.period_start.toISOString()).toBe(tp.started.toISOString());
    expect(summary.period_end.toISOString()).toBe(periodEndAfter(tp.started).toISOString());
    expect(summary.xml).toContain(
      '<sf:TipoEvento><sf:TipoEvento>01</sf:TipoEvento><sf:NumeroDeEventos>1</sf:NumeroDeEventos></sf:TipoEvento>',
    );
    expect(summary.xml).toContain('<sf:NumeroDeRegistrosFacturacionAltaGenerados>2</sf:NumeroDeRegistrosFacturacionAltaGenerados>');
    expect(summary.xml).toContain('<sf:SumaImporteTotalAlta>242.00</sf:SumaImporteTotalAlta>');
    expect(xmlsec1Verifies(summary.xml, ca.certPem).ok).toBe(true);
    const envelope = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>${summary.xml}</soapenv:Body></soapenv:Envelope>`;
    expect(await validateAgainstXsd(envelope, 'event')).toEqual({ valid: true, errors: [] });
  });

  it('are caught up after an outage and written before a shutdown, never twice through restarts', async () => {
    const tp = await keptTaxpayer();
    const boundary = periodEndAfter(tp.started).getTime();
    // A worker stops two hours into the second period: a summary up to then, and the first period's before it.
    const stop = new Date(boundary + 2 * HOUR);
    await Promise.all([sweep(stop, true), sweep(stop, true), sweep(stop)]);
    let rows = await summariesOf(tp.id);
    expectContiguous(rows, tp.started);
    expect(rows.at(-1)!.period_end.toISOString()).toBe(stop.toISOString());
    expect(rows).toHaveLength(2);

    // The fleet restarts a day and a half later: every period since is summarised, once, however many sweep.
    const back = new Date(boundary + 36 * HOUR + 60_000);
    await Promise.all([sweep(back), sweep(back), sweep(back)]);
    await sweep(back);
    rows = await summariesOf(tp.id);
    expectContiguous(rows, tp.started);
    expect(rows.at(-1)!.period_end.toISOString()).toBe(new Date(boundary + 36 * HOUR).toISOString());
    // 1 first period + 1 shutdown + the rest of the second period + 5 more six-hour periods.
    expect(rows).toHaveLength(8);
  });

  it('stop once NO VERI*FACTU operation ends', async () => {
    const tp = await keptTaxpayer();
    await request(t.app).put(`/api/v1/taxpayers/${tp.id}`).set(account.auth).send({ operating_mode: 'verifactu' }).expect(200);
    await sweep(new Date(periodEndAfter(tp.started).getTime() + 7 * HOUR));
    expect(await summariesOf(tp.id)).toEqual([]);
  });

  it('cannot be written twice for a period: PostgreSQL refuses a second summary from the same start', async () => {
    const tp = await keptTaxpayer();
    await sweep(new Date(periodEndAfter(tp.started).getTime() + 1000));
    const copy = sql`INSERT INTO sif_events (id, event_chain_id, seq, event_type, generated_at, generated_at_literal, hash, period_start, period_end, xml)
      SELECT gen_random_uuid(), e.event_chain_id, e.seq + 100, '10', e.generated_at, e.generated_at_literal, e.hash, e.period_start, e.period_end, e.xml
      FROM sif_events e JOIN event_chains ec ON ec.id = e.event_chain_id JOIN chains c ON c.id = ec.chain_id
      WHERE c.taxpayer_id = ${tp.id} AND e.event_type = '10'`;
    await expect(t.db.db.execute(copy)).rejects.toMatchObject({
      cause: expect.objectContaining({ code: '23505', constraint: 'sif_events_one_summary_a_period_uq' }),
    });
  });
});
