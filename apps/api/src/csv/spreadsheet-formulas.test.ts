import { sql } from 'drizzle-orm';
import request from 'supertest';
import { signUp, type DashboardAccount } from '@vf/dashboard/testing';
import { createSystem, createTaxpayer, invoiceBody } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

// Every character a spreadsheet evaluates at the start of a cell (OWASP, CSV injection), in an invoice's number or
// recipient, through both exports: each such cell reads as text, and a negative amount still reads as a number.
let t: TestApp;
let owner: DashboardAccount;
const TRIGGERS = ['=', '+', '-', '@', '\t', '\r'];
const recipientOf = (trigger: string) => `${trigger}SUM(1;2)`;

/** A CSV file as its rows of cells (quoted cells may hold ";", CR and doubled quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted || (c !== ';' && !(c === '\r' && text[i + 1] === '\n'))) cell += c;
    else {
      row.push(cell);
      cell = '';
      if (c === '\r') {
        rows.push(row);
        row = [];
        i++;
      }
    }
  }
  return rows;
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUp(t.app, 'Gestoría', 'es');
  const taxpayerId = await createTaxpayer(t.app, owner);
  const systemId = await createSystem(t.app, owner);
  for (const [i, trigger] of TRIGGERS.entries()) {
    const res = await request(t.app)
      .post('/api/v1/invoices')
      .set(owner.auth)
      .send(invoiceBody(taxpayerId, systemId, { invoice_number: `${'+-@'[i % 3]}${i}+1`, recipient: { name: `R${i}`, nif: 'B85905495' } }))
      .expect(201);
    // Written as stored text would be: the API trims what it is sent, so a leading tab or CR comes from elsewhere.
    await t.db.db.execute(sql`UPDATE invoices SET recipient = jsonb_set(recipient, '{name}', to_jsonb(${recipientOf(trigger)}::text))
      WHERE id = ${res.body.data.id}`);
  }
  // A credit amount, as a corrective invoice by differences carries (set directly: the fixture is an F1).
  const credit = await request(t.app)
    .post('/api/v1/invoices')
    .set(owner.auth)
    .send(invoiceBody(taxpayerId, systemId, { invoice_number: 'ABONO-1' }))
    .expect(201);
  await t.db.db.execute(sql`UPDATE invoices SET total_amount = -121, total_tax_amount = -21 WHERE id = ${credit.body.data.id}`);
});
afterAll(() => t.close());

async function rows(agent: request.Agent | ReturnType<typeof request>, path: string, auth: Record<string, string> = {}) {
  const res = await (agent as ReturnType<typeof request>).get(path).set(auth).expect(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  const [header, ...body] = parseCsv(res.text.replace(/^\uFEFF/, ''));
  return { header, body };
}

test.each([
  [
    'GET /api/v1/invoices/export',
    () => rows(request(t.app), '/api/v1/invoices/export?decimal=comma', owner.auth),
    'invoice_number',
    'recipient_name',
    'total_amount',
  ],
  ['the dashboard export', () => rows(owner.agent, '/app/invoices/export.csv'), 'Número', 'Destinatario', 'Total'],
])(
  '%s writes every formula-like cell as text and negative amounts as numbers',
  async (_name, read, numberColumn, recipientColumn, totalColumn) => {
    const { header, body } = await read();
    const [number, recipient, total] = [numberColumn, recipientColumn, totalColumn].map((c) => header.indexOf(c));
    const byRecipient = new Map(body.map((r) => [r[recipient], r]));
    for (const trigger of TRIGGERS) {
      const row = byRecipient.get(`'${recipientOf(trigger)}`);
      expect({ trigger, found: row !== undefined }).toEqual({ trigger, found: true });
      expect(row![number]).toMatch(/^'[+\-@]\d\+1$/);
    }
    const credit = body.find((r) => r[number] === 'ABONO-1')!;
    expect(credit[total]).toBe('-121,00');
    expect(credit).toContain('-21,00');
    // Nothing else starts like a formula.
    for (const cell of body.filter((r) => r !== credit).flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  },
);
