import { sql } from 'drizzle-orm';
import request from 'supertest';
import { createTestCa, issueCertificate, toPkcs12 } from '@vf/certificates/testing';
import { createSystem, createTaxpayer, invoiceBody, registerAccount, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

// The QR URL is no longer kept with the record (decision 0065): every place that shows it rebuilds it from the
// record's columns. The URL the registration (or correction, or cancellation) answered, built as the record was
// generated, is what was kept before: each later answer must be those very bytes.

const DAY = 86_400_000;
const PASSWORD = 'p12-Secret-Pass';
const ca = createTestCa();

let t: TestApp;
let account: TestAccount;
let system: string;
beforeAll(async () => {
  t = await createTestApp();
  account = await registerAccount(t.app);
  system = await createSystem(t.app, account, { only_supports_verifactu: false, supports_multiple_taxpayers: true });
});
afterAll(() => t.close());

// Amounts as strings with two decimals: a float such as 10 * 1.21 is not an amount the API accepts.
const amounts = (base: number) => {
  const tax = ((base * 21) / 100).toFixed(2);
  return {
    breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: base.toFixed(2), tax_rate: 21, tax_amount: tax }],
    total_amount: (base + Number(tax)).toFixed(2),
    total_tax_amount: tax,
  };
};

async function keptTaxpayer(): Promise<string> {
  const holder = issueCertificate(ca, { commonName: 'CONTRIBUYENTE', nif: '89890001K', notAfter: new Date(Date.now() + 800 * DAY) });
  const p12 = toPkcs12(holder, PASSWORD, ca).toString('base64');
  return createTaxpayer(t.app, account, {
    operating_mode: 'no_verifactu',
    certificate_p12_base64: p12,
    certificate_password: PASSWORD,
  });
}

/** Each invoice's qr_url as the detail, the list and the CSV export answer it now. */
async function answeredNow(): Promise<{ detail: Map<string, string>; list: Map<string, string>; csv: Map<string, string> }> {
  const listed = await request(t.app).get('/api/v1/invoices?limit=100').set(account.auth).expect(200);
  const list = new Map<string, string>(listed.body.data.map((i: { id: string; qr_url: string }) => [i.id, i.qr_url]));
  const detail = new Map<string, string>();
  for (const id of list.keys()) {
    detail.set(id, (await request(t.app).get(`/api/v1/invoices/${id}`).set(account.auth).expect(200)).body.data.qr_url);
  }
  const exported = await request(t.app).get('/api/v1/invoices/export?format=csv').set(account.auth).buffer(true).expect(200);
  const [header, ...rows] = String(exported.text)
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean);
  const columns = header.split(';');
  // No value here holds a quote or a semicolon but the recipient's name, which precedes neither column read.
  const csv = new Map<string, string>(
    rows.map((line) => {
      const cells = line.split(';');
      return [cells[columns.indexOf('invoice_number')], cells[columns.indexOf('qr_url')]];
    }),
  );
  return { detail, list, csv };
}

test('every answer gives the QR URL the record was generated with: encoded numbers, corrections, cancellations, NO VERI*FACTU', async () => {
  const sent = await createTaxpayer(t.app, account);
  const kept = await keptTaxpayer();
  const register = async (taxpayer: string, extra: Record<string, unknown>) => {
    const res = await request(t.app)
      .post('/api/v1/invoices')
      .set(account.auth)
      .send(invoiceBody(taxpayer, system, extra));
    expect({ status: res.status, body: res.status === 201 ? null : res.body }).toEqual({ status: 201, body: null });
    return res.body.data as { id: string; invoice_number: string; qr_url: string };
  };
  const generated = new Map<string, { number: string; qr: string }>();
  const plan: [string, Record<string, unknown>][] = [
    [sent, { invoice_number: 'N/2026 #1 & mas+%', ...amounts(100) }],
    [sent, { invoice_number: 'A*B.C_D-1', ...amounts(12) }],
    [sent, { invoice_number: 'corr 1', ...amounts(10) }],
    [sent, { invoice_number: 'anul 1', ...amounts(20) }],
    [kept, { invoice_number: 'K ~/1?', ...amounts(30) }],
    [kept, { invoice_number: 'K-anul', ...amounts(40) }],
  ];
  for (const [taxpayer, extra] of plan) {
    const r = await register(taxpayer, extra);
    generated.set(r.id, { number: r.invoice_number, qr: r.qr_url });
  }
  const idOf = (number: string) => [...generated].find(([, g]) => g.number === number)![0];
  expect(generated.get(idOf('K ~/1?'))!.qr).toContain('/ValidarQRNoVerifactu?');
  await t.db.db.execute(sql`UPDATE invoices SET authority_status = 'accepted' WHERE id IN (${idOf('corr 1')}, ${idOf('anul 1')})`);

  // A correction changes the total the QR code carries; a cancellation repeats the code of the record it cancels.
  await request(t.app)
    .put(`/api/v1/invoices/${idOf('corr 1')}`)
    .set(account.auth)
    .send(invoiceBody(sent, system, { invoice_number: 'corr 1', ...amounts(1000) }))
    .expect(201);
  const original = generated.get(idOf('corr 1'))!.qr;
  expect(original).toMatch(/&importe=12\.10$/);
  generated.set(idOf('corr 1'), { number: 'corr 1', qr: original.replace(/12\.10$/, '1210.00') });
  for (const number of ['anul 1', 'K-anul']) {
    await request(t.app)
      .post(`/api/v1/invoices/${idOf(number)}/cancel`)
      .set(account.auth)
      .send({})
      .expect(201);
  }

  const now = await answeredNow();
  expect(now.detail.size).toBe(generated.size);
  for (const [id, { number, qr }] of generated) {
    expect({ number, detail: now.detail.get(id) }).toEqual({ number, detail: qr });
    expect({ number, list: now.list.get(id) }).toEqual({ number, list: qr });
  }
  // The CSV quotes what it must and writes the URL as the API answers it.
  const unquote = (cell: string) => (cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell);
  for (const { number, qr } of generated.values()) {
    const key = [...now.csv.keys()].find((k) => unquote(k) === number)!;
    expect({ number, csv: unquote(now.csv.get(key)!) }).toEqual({ number, csv: qr });
  }
  // The image is drawn from the same URL.
  const png = await request(t.app)
    .get(`/api/v1/invoices/${idOf('K ~/1?')}/qr`)
    .set(account.auth)
    .expect(200);
  expect(png.headers['content-type']).toMatch(/^image\/png/);
});
