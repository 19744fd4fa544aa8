import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { madridToday } from '@vf/core';
import { createTaxpayer, invoiceBody, readyAccount, registerAccount, type TestAccount } from '../testing/api-fixtures';
import { createResponseChecker } from '../openapi/testing/response-checker';
import { createTestApp, type TestApp } from '../testing/test-app';
import { createInvoiceExportService } from './invoice-export-service';
import { invoiceListStore } from '@vf/db';

const DAY = 86_400_000;
const earlier = (days: number) => madridToday(new Date(Date.now() - days * DAY));

let t: TestApp;
let checkAgainstDocument: ReturnType<typeof createResponseChecker>;
let owner: TestAccount;
let taxpayerA: string;
let taxpayerB: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  checkAgainstDocument = createResponseChecker((await request(t.app).get('/api/v1/openapi.json')).body);
  const ready = await readyAccount(t.app);
  owner = ready.account;
  taxpayerA = ready.taxpayerId;
  taxpayerB = await createTaxpayer(t.app, owner, { name: 'B' });
  const plan: [string, string, Record<string, unknown>][] = [
    ['a1', taxpayerA, { invoice_number: 'A-2', invoice_date: earlier(10), recipient: { name: 'Bar "El Puerto"; S.L.', nif: 'B85905495' } }],
    ['a2', taxpayerA, { invoice_number: 'A-10', invoice_date: earlier(3) }],
    ['a3', taxpayerA, { invoice_number: 'X-1', invoice_date: earlier(7), recipient: { name: 'Otra', nif: 'A58818501' } }],
    ['b1', taxpayerB, { invoice_number: 'A-3', invoice_date: earlier(1), invoice_type: 'F2', recipient: undefined }],
  ];
  for (const [key, taxpayer, extra] of plan) {
    const res = await request(t.app)
      .post('/api/v1/invoices')
      .set(owner.auth)
      .send(invoiceBody(taxpayer, ready.systemId, extra))
      .expect(201);
    ids[key] = res.body.data.id;
  }
  await t.db.db.execute(sql`UPDATE invoices SET authority_status = 'accepted', authority_csv = 'CSV;1' WHERE id = ${ids.a1}`);
});
afterAll(() => t.close());

interface ListBody {
  data: { id: string; recipient_name: string | null; base_amount: string | null }[];
  next_cursor: string | null;
  total: number;
  total_exact: boolean;
}
/** Every listing here is also held against the OpenAPI document. */
async function list(query: string, account = owner): Promise<ListBody> {
  const res = await request(t.app).get(`/api/v1/invoices${query}`).set(account.auth).expect(200);
  expect(checkAgainstDocument('get /invoices', res)).toBeUndefined();
  return res.body;
}
const keysOf = (page: ListBody) => page.data.map((i) => Object.entries(ids).find(([, id]) => id === i.id)?.[0]);

describe('GET /api/v1/invoices filters, sorting and total', () => {
  it('filters by each criterion and counts every match, not just the page', async () => {
    expect(keysOf(await list(`?taxpayer_id=${taxpayerB}`))).toEqual(['b1']);
    expect(keysOf(await list('?status=accepted'))).toEqual(['a1']);
    expect(keysOf(await list('?invoice_type=F2'))).toEqual(['b1']);
    expect((await list(`?date_from=${earlier(7)}&date_to=${earlier(3)}&sort=invoice_date`)).data.map((i) => i.id)).toEqual([
      ids.a3,
      ids.a2,
    ]);
    expect(keysOf(await list('?recipient_nif=a58818501'))).toEqual(['a3']);
    expect(keysOf(await list('?number_prefix=A-&sort=invoice_number'))).toEqual(['a2', 'a1', 'b1']);
    expect(keysOf(await list('?number_prefix=a-'))).toEqual([]);
    const page = await list('?limit=1&number_prefix=A-');
    expect(page.data).toHaveLength(1);
    expect(page.total).toBe(3);
    expect((await list('?kind=corrective')).total).toBe(0);
  });

  it('shows the recipient and the base of each row', async () => {
    const [row] = (await list(`?number_prefix=A-2`)).data;
    expect(row).toMatchObject({
      recipient_name: 'Bar "El Puerto"; S.L.',
      recipient_nif: 'B85905495',
      base_amount: '100.00',
      total_amount: '121.00',
    });
  });

  it('sorts by date or number both ways, and pages through each order without repeats or gaps', async () => {
    expect(keysOf(await list('?sort=invoice_date'))).toEqual(['a1', 'a3', 'a2', 'b1']);
    expect(keysOf(await list('?sort=-invoice_date'))).toEqual(['b1', 'a2', 'a3', 'a1']);
    expect(keysOf(await list('?sort=-invoice_number'))).toEqual(['a3', 'b1', 'a1', 'a2']);
    for (const sort of ['invoice_date', '-invoice_number', 'created_at', '-created_at']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: ListBody = await list(`?sort=${sort}&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...page.data.map((i) => i.id));
        cursor = page.next_cursor;
      } while (cursor);
      expect(seen).toEqual((await list(`?sort=${sort}`)).data.map((i) => i.id));
    }
  });

  it("sorts by total both ways, keeps a day's invoices in the order they were registered, and pages through each", async () => {
    const other = await readyAccount(t.app);
    const day = earlier(2);
    for (const [number, base, tax] of [
      ['T-1', 300, 63],
      ['T-2', 100, 21],
      ['T-3', 200, 42],
    ] as const) {
      const breakdown = [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: base, tax_rate: 21, tax_amount: tax }];
      await request(t.app)
        .post('/api/v1/invoices')
        .set(other.account.auth)
        .send(
          invoiceBody(other.taxpayerId, other.systemId, {
            invoice_number: number,
            invoice_date: day,
            breakdown,
            total_amount: base + tax,
            total_tax_amount: tax,
          }),
        )
        .expect(201);
    }
    const numbers = async (query: string) =>
      (await list(query, other.account)).data.map((i) => (i as unknown as { invoice_number: string }).invoice_number);
    expect(await numbers('?sort=total_amount')).toEqual(['T-2', 'T-3', 'T-1']);
    expect(await numbers('?sort=-total_amount')).toEqual(['T-1', 'T-3', 'T-2']);
    expect(await numbers('?sort=invoice_date')).toEqual(['T-1', 'T-2', 'T-3']);
    expect(await numbers('?sort=-invoice_date')).toEqual(['T-3', 'T-2', 'T-1']);
    for (const sort of ['total_amount', '-total_amount', 'invoice_date', '-invoice_date']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: ListBody = await list(`?sort=${sort}&limit=1${cursor ? `&cursor=${cursor}` : ''}`, other.account);
        seen.push(...page.data.map((i) => i.id));
        cursor = page.next_cursor;
      } while (cursor);
      expect(seen).toEqual((await list(`?sort=${sort}`, other.account)).data.map((i) => i.id));
    }
  });

  it('refuses a cursor handed out for another sort, and unknown sorts', async () => {
    const { next_cursor } = await list('?sort=invoice_date&limit=1');
    await request(t.app).get(`/api/v1/invoices?sort=invoice_number&cursor=${next_cursor}`).set(owner.auth).expect(422);
    const res = await request(t.app).get('/api/v1/invoices?sort=amount&recipient_nif=123').set(owner.auth).expect(422);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['recipient_nif', 'sort']);
  });

  it('refuses days that do not exist, in the filters and inside a cursor, with 422 before any query', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const cursor = (sort: string, value: string) => Buffer.from(JSON.stringify([sort, value, id])).toString('base64url');
    for (const query of [
      '?date_from=2025-02-30',
      '?date_to=2025-04-31',
      `?sort=invoice_date&cursor=${cursor('invoice_date', '2025-02-30')}`,
      `?cursor=${cursor('-created_at', '2025-02-29 10:00:00+00')}`,
    ]) {
      const res = await request(t.app).get(`/api/v1/invoices${query}`).set(owner.auth);
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 422, code: 'validation_failed' });
    }
    const exported = await request(t.app).get('/api/v1/invoices/export?date_from=2025-02-30').set(owner.auth).expect(422);
    expect(exported.body.errors).toEqual([expect.objectContaining({ field: 'date_from' })]);
  });

  it("never counts another account's invoices", async () => {
    const stranger = await registerAccount(t.app, 'Stranger');
    expect(await list('', stranger)).toEqual({ data: [], next_cursor: null, total: 0, total_exact: true });
  });
});

describe('GET /api/v1/invoices/export?format=csv', () => {
  it('is a UTF-8 CSV with a BOM, ";" separators, CRLF lines and quoting, filtered like the list', async () => {
    const res = await request(t.app)
      .get('/api/v1/invoices/export?format=csv&taxpayer_id=' + taxpayerA + '&sort=invoice_number')
      .set(owner.auth)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="?invoices-\d{4}-\d{2}-\d{2}\.csv"?$/);
    const body: Buffer = res.body;
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = body.subarray(3).toString('utf8').split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines.every((l) => !l.includes('\n'))).toBe(true);
    expect(lines[0]).toBe(
      'invoice_number;invoice_date;invoice_type;recipient_name;recipient_nif;base_amount;total_tax_amount;total_amount;authority_status;authority_code;authority_csv;qr_url;created_at',
    );
    expect(lines).toHaveLength(4);
    const a1 = lines.find((l) => l.startsWith('A-2;'))!;
    expect(a1).toContain(`A-2;${earlier(10)};F1;"Bar ""El Puerto""; S.L.";B85905495;100.00;21.00;121.00;accepted;;"CSV;1";https://`);
  });

  it('writes amounts with a decimal comma on request', async () => {
    const res = await request(t.app).get('/api/v1/invoices/export?format=csv&decimal=comma&number_prefix=X-').set(owner.auth).expect(200);
    expect(res.text.split('\r\n')[1]).toMatch(/^X-1;[^;]+;F1;Otra;A58818501;100,00;21,00;121,00;queued;;;/);
  });

  it('refuses other formats and bad filters with a problem, before any CSV', async () => {
    const res = await request(t.app).get('/api/v1/invoices/export?format=xlsx&status=bogus').set(owner.auth).expect(422);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['format', 'status']);
  });

  it('answers a problem, not a half file, when the first read fails', async () => {
    const reads = jest
      .spyOn(invoiceListStore, 'page')
      .mockRejectedValueOnce(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    try {
      const res = await request(t.app).get('/api/v1/invoices/export?format=csv').set(owner.auth).expect(503);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(res.body.code).toBe('service_unavailable');
    } finally {
      reads.mockRestore();
    }
  });

  it('streams a large export in bounded batches as the destination drains', async () => {
    // 600 more invoices, copies of one registered row with their own ids, numbers and chain positions.
    await t.db.db.execute(sql`
      INSERT INTO invoices
      SELECT (jsonb_populate_record(NULL::invoices, to_jsonb(i) || jsonb_build_object(
        'id', x.u, 'invoice_id', x.u, 'current_record_id', x.u, 'chain_seq', 1000 + x.g, 'invoice_number', 'BULK-' || x.g))).*
      FROM invoices i CROSS JOIN LATERAL (SELECT g, gen_random_uuid() AS u FROM generate_series(1, 600) g) x
      WHERE i.id = ${ids.a2}`);
    const received: number[] = [];
    let bytes = 0;
    const readPage = invoiceListStore.page.bind(invoiceListStore);
    const readsSeenAt: number[] = [];
    const reads = jest.spyOn(invoiceListStore, 'page').mockImplementation((...args) => {
      readsSeenAt.push(bytes);
      return readPage(...args);
    });
    const out = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        received.push(chunk.length);
        setImmediate(done);
      },
    });
    try {
      await createInvoiceExportService({ db: t.db.db }).exportInvoicesCsv(
        (await t.db.db.execute<{ account_id: string }>(sql`SELECT account_id FROM invoices WHERE id = ${ids.a2}`)).rows[0].account_id,
        { number_prefix: 'BULK-', sort: '-created_at' },
        { batchSize: 50 },
        out,
      );
    } finally {
      reads.mockRestore();
    }
    // 12 full batches and the empty one that says the end; every read asked for one batch only.
    expect(readsSeenAt).toHaveLength(13);
    expect(reads.mock.calls.every((call) => call[5] === 50)).toBe(true);
    // Each batch was read only once the previous ones had mostly been written: nothing buffers the whole result.
    for (let i = 2; i < readsSeenAt.length; i++) expect(readsSeenAt[i]).toBeGreaterThan(readsSeenAt[i - 1]);
    expect(readsSeenAt[12]).toBeGreaterThan(bytes * 0.8);
    expect(received.length).toBeGreaterThan(12);
  });
});
