import { sql } from 'drizzle-orm';
import request from 'supertest';
import { madridToday } from '@vf/core';
import { createTaxpayer, invoiceBody, readyAccount, registerAccount, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

const DAY = 86_400_000;
const earlier = (days: number) => madridToday(new Date(Date.now() - days * DAY));
const reduce = {
  corrected_invoices: [{ invoice_number: 'ORIG-1', invoice_date: earlier(30) }],
  breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: -10, tax_rate: 21, tax_amount: -2.1 }],
  total_amount: -12.1,
  total_tax_amount: -2.1,
};

let t: TestApp;
let owner: TestAccount;
let stranger: TestAccount;
let taxpayerA: string;
let taxpayerB: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  const ready = await readyAccount(t.app, { nif: '89890001K' });
  owner = ready.account;
  taxpayerA = ready.taxpayerId;
  taxpayerB = await createTaxpayer(t.app, owner, { nif: '89890002E', name: 'B' });
  stranger = await registerAccount(t.app, 'Stranger');
  // Registered one after another: the listing is newest first.
  const plan: [string, string, Record<string, unknown>][] = [
    ['a1', taxpayerA, { invoice_number: 'A-001', invoice_date: earlier(10) }],
    ['a2', taxpayerA, { invoice_number: 'A-002', invoice_date: earlier(5) }],
    ['aR', taxpayerA, { invoice_number: 'AR-001', invoice_type: 'R4', ...reduce, invoice_date: earlier(2) }],
    ['b1', taxpayerB, { invoice_number: 'B_100%', invoice_date: earlier(1) }],
    ['b2', taxpayerB, { invoice_number: 'B-002', invoice_type: 'F2', recipient: undefined }],
  ];
  for (const [key, taxpayer, extra] of plan) {
    const res = await request(t.app)
      .post('/api/v1/invoices')
      .set(owner.auth)
      .send(invoiceBody(taxpayer, ready.systemId, extra))
      .expect(201);
    ids[key] = res.body.data.id;
  }
  await t.db.db.execute(sql`UPDATE invoices SET authority_status = 'accepted', authority_csv = 'A-CSV-1' WHERE id = ${ids.a1}`);
});
afterAll(() => t.close());

async function list(query: string, account = owner): Promise<{ data: { id: string }[]; next_cursor: string | null }> {
  return (await request(t.app).get(`/api/v1/invoices${query}`).set(account.auth).expect(200)).body;
}
const keysOf = (page: { data: { id: string }[] }) => page.data.map((i) => Object.entries(ids).find(([, id]) => id === i.id)?.[0]);

describe('GET /api/v1/invoices', () => {
  it('lists newest first with a summary of each', async () => {
    const page = await list('');
    expect(keysOf(page)).toEqual(['b2', 'b1', 'aR', 'a2', 'a1']);
    expect(page.next_cursor).toBeNull();
    expect(page.data[4]).toMatchObject({
      invoice_number: 'A-001',
      total_amount: '121.00',
      authority_status: 'accepted',
      kind: 'normal',
      chain_position: 1,
    });
  });

  it('filters by taxpayer, status, type list, kind, dates and number', async () => {
    expect(keysOf(await list(`?taxpayer_id=${taxpayerB}`))).toEqual(['b2', 'b1']);
    expect(keysOf(await list('?status=accepted'))).toEqual(['a1']);
    expect(keysOf(await list('?status=queued,accepted&taxpayer_id=' + taxpayerA))).toEqual(['aR', 'a2', 'a1']);
    expect(keysOf(await list('?invoice_type=F2,R4'))).toEqual(['b2', 'aR']);
    expect(keysOf(await list('?kind=corrective'))).toEqual(['aR']);
    expect(keysOf(await list('?kind=normal&invoice_type=R4'))).toEqual([]);
    expect(keysOf(await list(`?date_from=${earlier(5)}&date_to=${earlier(1)}`))).toEqual(['b1', 'aR', 'a2']);
    expect(keysOf(await list('?q=a-00'))).toEqual(['a2', 'a1']);
    // LIKE wildcards in q are literal characters.
    expect(keysOf(await list('?q=' + encodeURIComponent('_100%')))).toEqual(['b1']);
    expect(keysOf(await list('?q=' + encodeURIComponent('%')))).toEqual(['b1']);
  });

  it('pages with an opaque cursor until the end, without repeats or gaps', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((i) => i.id));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(['b2', 'b1', 'aR', 'a2', 'a1'].map((k) => ids[k]));
    const bad = await request(t.app).get('/api/v1/invoices?cursor=not-ours').set(owner.auth).expect(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'cursor' })]);
    await request(t.app).get('/api/v1/invoices?limit=201').set(owner.auth).expect(422);
    await request(t.app).get('/api/v1/invoices?limit=0').set(owner.auth).expect(422);
  });

  it("never shows another account's invoices", async () => {
    expect((await list('', stranger)).data).toEqual([]);
    expect((await list(`?taxpayer_id=${taxpayerA}`, stranger)).data).toEqual([]);
  });
});

describe('GET /api/v1/invoices/{id}', () => {
  it('returns every field of the request, the chain and the authority state', async () => {
    const res = await request(t.app).get(`/api/v1/invoices/${ids.aR}`).set(owner.auth).expect(200);
    expect(res.body.data).toEqual({
      id: ids.aR,
      taxpayer_id: taxpayerA,
      computer_system_id: expect.any(String),
      record_type: 'registration',
      invoice_number: 'AR-001',
      invoice_date: earlier(2),
      invoice_type: 'R4',
      kind: 'corrective',
      description: 'Servicios de consultoría',
      operation_date: null,
      recipient: { name: 'Cliente SL', nif: 'B85905495' },
      recipients: [{ name: 'Cliente SL', nif: 'B85905495' }],
      issued_by: null,
      third_party: null,
      simplified_art_72_73: false,
      without_recipient_art_61d: false,
      coupon: false,
      rectification_type: 'I',
      rectified_base_amount: null,
      rectified_tax_amount: null,
      rectified_surcharge_amount: null,
      sandbox_scenario: null,
      corrected_invoices: [{ invoice_number: 'ORIG-1', invoice_date: earlier(30) }],
      substituted_invoices: [],
      breakdown: [
        {
          tax_type: '01',
          regime_type: '01',
          operation_type: 'S1',
          base_amount: '-10.00',
          cost_base_amount: null,
          tax_rate: '21.00',
          tax_amount: '-2.10',
          surcharge_rate: null,
          surcharge_amount: null,
        },
      ],
      total_amount: '-12.10',
      total_tax_amount: '-2.10',
      issuer: { nif: '89890001K', name: 'Contribuyente de Pruebas' },
      computer_system: expect.objectContaining({ IndicadorMultiplesOT: 'S' }),
      environment: 'sandbox',
      hash: expect.stringMatching(/^[0-9A-F]{64}$/),
      previous_hash: expect.stringMatching(/^[0-9A-F]{64}$/),
      previous_invoice_id: ids.a2,
      chain_position: 3,
      generated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/),
      qr_url: expect.stringContaining('importe=-12.10'),
      authority_status: 'queued',
      authority_code: null,
      authority_message: null,
      next_attempt_at: null,
      authority_csv: null,
      cancelled: false,
      warnings: [],
      status_history: [{ status: 'queued', at: expect.any(String), code: null, message: null, record_id: ids.aR }],
      records: [
        {
          id: ids.aR,
          invoice_id: ids.aR,
          record_type: 'registration',
          flags: { subsanacion: false, rechazo_previo: null, sin_registro_previo: false },
          hash: expect.stringMatching(/^[0-9A-F]{64}$/),
          previous_hash: expect.stringMatching(/^[0-9A-F]{64}$/),
          chain_position: 3,
          generated_at: expect.any(String),
          authority_status: 'queued',
          authority_code: null,
          authority_message: null,
          authority_csv: null,
          cancellation_reason: null,
          sandbox_scenario: null,
          warnings: [],
          xml_url: `/api/v1/invoices/${ids.aR}/records/${ids.aR}/xml`,
        },
      ],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it("is a 404 for another account's invoice and for unknown ids", async () => {
    expect((await request(t.app).get(`/api/v1/invoices/${ids.a1}`).set(stranger.auth).expect(404)).body.code).toBe('invoice_not_found');
    await request(t.app).get('/api/v1/invoices/00000000-0000-4000-8000-000000000000').set(owner.auth).expect(404);
  });
});

describe('GET /api/v1/invoices/{id}/submissions', () => {
  it('lists the SOAP exchanges that carried the invoice, newest first', async () => {
    const { rows } = await t.db.db.execute(sql`
      INSERT INTO submissions (taxpayer_id, chain_id, outcome, worker_id, endpoint, certificate_mode, record_count, request_xml, response_xml, http_status, csv, started_at, finished_at)
      VALUES (${taxpayerA}, (SELECT chain_id FROM invoices WHERE id = ${ids.a1}), 'transport_error', 'w1', 'https://sim/a', 'platform', 1, '<req1/>', NULL, NULL, NULL, now() - interval '1 minute', now() - interval '50 seconds'),
             (${taxpayerA}, (SELECT chain_id FROM invoices WHERE id = ${ids.a1}), 'answered', 'w1', 'https://sim/a', 'platform', 1, '<req2/>', '<resp2/>', 200, 'A-CSV-1', now(), now())
      RETURNING id`);
    for (const [position, row] of (rows as { id: string }[]).entries()) {
      await t.db.db.execute(
        sql`INSERT INTO submission_invoices (submission_id, invoice_id, position) VALUES (${row.id}, ${ids.a1}, ${position})`,
      );
    }
    const res = await request(t.app).get(`/api/v1/invoices/${ids.a1}/submissions`).set(owner.auth).expect(200);
    expect(res.body.data).toEqual([
      {
        id: (rows[1] as { id: string }).id,
        started_at: expect.any(String),
        finished_at: expect.any(String),
        outcome: 'answered',
        endpoint: 'https://sim/a',
        certificate_mode: 'platform',
        incident: false,
        http_status: 200,
        fault_code: null,
        error_message: null,
        csv: 'A-CSV-1',
        request_xml: '<req2/>',
        response_xml: '<resp2/>',
      },
      expect.objectContaining({ outcome: 'transport_error', request_xml: '<req1/>', response_xml: null }),
    ]);
    expect((await request(t.app).get(`/api/v1/invoices/${ids.a2}/submissions`).set(owner.auth).expect(200)).body.data).toEqual([]);
    expect((await request(t.app).get(`/api/v1/invoices/${ids.a1}/submissions`).set(stranger.auth).expect(404)).body.code).toBe(
      'invoice_not_found',
    );
  });
});
