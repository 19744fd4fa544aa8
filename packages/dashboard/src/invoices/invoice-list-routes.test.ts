import request from 'supertest';
import { createSystem, createTaxpayer, invoiceBody, createTestApp, type TestApp } from '@vf/api/testing';
import { signUp, type DashboardAccount } from '../testing/dashboard-agent';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Ready = DashboardAccount & { taxpayerId: string; systemId: string };

async function ready(language = 'en'): Promise<Ready> {
  const a = await signUp(t.app, 'Gestoría Ejemplo', language);
  return { ...a, taxpayerId: await createTaxpayer(t.app, { ...a }), systemId: await createSystem(t.app, { ...a }) };
}

/** An invoice of `base` + 21 % VAT. */
async function register(a: Ready, number: string, base: number, overrides: Record<string, unknown> = {}) {
  const tax = Math.round(base * 21) / 100;
  const body = invoiceBody(a.taxpayerId, a.systemId, {
    invoice_number: number,
    breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: base, tax_rate: 21, tax_amount: tax }],
    // Rounded to cents: a float sum such as 19 + 3.99 would carry a tail the API refuses.
    total_amount: Math.round((base + tax) * 100) / 100,
    total_tax_amount: tax,
    ...overrides,
  });
  await request(t.app).post('/api/v1/invoices').set(a.auth).send(body).expect(201);
}

function listedNumbers(page: string): string[] {
  const table = /data-testid="invoice-table">([\s\S]*?)<\/table>/.exec(page)?.[1] ?? '';
  return [...table.matchAll(/<a href="\/app\/invoices\/[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
}

const unescape = (href: string) => href.replace(/&amp;/g, '&');

describe('invoice list columns, sorting, total and pages', () => {
  it('shows the recipient, the tax and the total of each invoice', async () => {
    const a = await ready();
    await register(a, 'C-1', 1000, { recipient: { name: 'Talleres Ruiz SA', nif: 'A28015865' } });
    await register(a, 'C-2', 50, { invoice_type: 'F2', recipient: undefined });
    const page = (await a.agent.get('/app/invoices?sort=number_asc').expect(200)).text;
    expect(page).toMatch(/<th scope="col"[^>]*><a [^>]*>Recipient<\/a>|<th scope="col">Recipient<\/th>/);
    expect(page).toContain('<th scope="col" class="num">Tax</th>');
    const rows = page.split('<tr>').slice(2);
    expect(rows[0]).toContain('data-testid="recipient">Talleres Ruiz SA <span class="muted mono">A28015865</span></td>');
    expect(rows[0]).toContain('data-testid="tax">€210.00</td>');
    expect(rows[0]).toContain('data-testid="total">€1,210.00</td>');
    // A simplified invoice has no recipient.
    expect(rows[1]).toContain('data-testid="recipient"><span class="muted">—</span></td>');
    expect(rows[1]).toContain('data-testid="total">€60.50</td>');
  });

  it('sorts by number, date and total from the column headers, both ways, saying which way it is sorted', async () => {
    const a = await ready();
    await register(a, 'S-B', 300, { invoice_date: '2026-01-10' });
    await register(a, 'S-C', 100, { invoice_date: '2026-03-10' });
    await register(a, 'S-A', 200, { invoice_date: '2026-02-10' });
    const list = async (query: string) => (await a.agent.get(`/app/invoices${query}`).expect(200)).text;

    const byDate = await list('');
    expect(listedNumbers(byDate)).toEqual(['S-C', 'S-A', 'S-B']);
    expect(byDate).toMatch(/<th scope="col" aria-sort="descending"><a href="\/app\/invoices\?sort=date_asc" data-sort="date_asc">Date/);

    // The header link of a column turns its order around.
    const numberHref = unescape(/<a href="([^"]+)" data-sort="number_asc">Number/.exec(byDate)![1]);
    const byNumber = await list(numberHref.replace('/app/invoices', ''));
    expect(listedNumbers(byNumber)).toEqual(['S-A', 'S-B', 'S-C']);
    expect(byNumber).toMatch(/aria-sort="ascending"><a href="\/app\/invoices\?sort=number_desc"/);
    expect(listedNumbers(await list('?sort=number_desc'))).toEqual(['S-C', 'S-B', 'S-A']);
    expect(listedNumbers(await list('?sort=total_desc'))).toEqual(['S-B', 'S-A', 'S-C']);
    expect(listedNumbers(await list('?sort=total_asc'))).toEqual(['S-C', 'S-A', 'S-B']);
    expect(listedNumbers(await list('?sort=date_asc'))).toEqual(['S-B', 'S-A', 'S-C']);
    // Sorting keeps the filters; an unknown order falls back to the newest first.
    expect(listedNumbers(await list('?sort=total_asc&date_from=2026-02-01'))).toEqual(['S-C', 'S-A']);
    expect(listedNumbers(await list('?sort=sideways'))).toEqual(['S-C', 'S-A', 'S-B']);
  });

  it('says how many invoices match and numbers the pages, keeping filters and order on every page link', async () => {
    const a = await ready();
    for (let i = 1; i <= 53; i++) await register(a, `N-${String(i).padStart(3, '0')}`, i);
    await register(a, 'OTHER-1', 1);
    const first = (await a.agent.get('/app/invoices?q=N-&sort=number_asc').expect(200)).text;
    expect(first).toContain('<strong>53 invoices</strong> · showing 1–25');
    expect(listedNumbers(first)[0]).toBe('N-001');
    const pageLinks = [...first.matchAll(/<a href="([^"]+)" aria-label="Page (\d+)">/g)].map((m) => [unescape(m[1]), m[2]]);
    expect(pageLinks).toEqual([
      ['/app/invoices?q=N-&sort=number_asc&page=2', '2'],
      ['/app/invoices?q=N-&sort=number_asc&page=3', '3'],
    ]);
    const third = (await a.agent.get('/app/invoices?q=N-&sort=number_asc&page=3').expect(200)).text;
    expect(third).toContain('<strong>53 invoices</strong> · showing 51–53');
    expect(listedNumbers(third)).toEqual(['N-051', 'N-052', 'N-053']);
    expect(third).toContain('<span aria-current="page" aria-label="Page 3">3</span>');
    expect(third).not.toContain('rel="next"');
    expect(third).toContain('rel="prev"');
    // A page beyond the last one is empty, not an error.
    expect(listedNumbers((await a.agent.get('/app/invoices?q=N-&page=9').expect(200)).text)).toEqual([]);
  });
});

describe('CSV export from the list', () => {
  it('streams every matching invoice with the list\'s filters and order: ";" separated, UTF-8 BOM, Spanish headers and decimal comma', async () => {
    const a = await ready('es');
    await register(a, 'E-2', 1000, { recipient: { name: 'Talleres "Ruiz"; SA', nif: 'A28015865' } });
    await register(a, 'E-1', 10);
    await register(a, '+cmd', 1);
    await register(a, 'X-9', 5);

    const page = (await a.agent.get('/app/invoices?q=E-&sort=number_asc').expect(200)).text;
    const href = unescape(/<a class="[^"]*" href="([^"]+)" download data-testid="export-csv">Exportar CSV<\/a>/.exec(page)![1]);
    expect(href).toBe('/app/invoices/export.csv?q=E-&sort=number_asc');

    const res = await a.agent
      .get(href)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="facturas-\d{4}-\d{2}-\d{2}\.csv"$/);
    const body = res.body as Buffer;
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = body.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('Número;Fecha;Tipo;NIF emisor;Destinatario;NIF destinatario;Cuota;Total;Estado;Código AEAT');
    expect(lines[1]).toMatch(/^E-1;\d{2}\/\d{2}\/\d{4};F1;[0-9A-Z]{9};Cliente SL;B85905495;2,10;12,10;En cola;$/);
    expect(lines[2]).toMatch(/^E-2;[^;]+;F1;[^;]+;"Talleres ""Ruiz""; SA";A28015865;210,00;1210,00;En cola;$/);
    expect(lines.slice(3)).toEqual(['']);

    // A value that starts like a spreadsheet formula is written as text.
    const all = (await a.agent.get('/app/invoices/export.csv?q=cmd')).text;
    expect(all).toContain("\r\n'+cmd;");
  });

  it('exports in English with a decimal point for an English reader, and only corrective invoices from their section', async () => {
    const a = await ready('en');
    await register(a, 'G-1', 10);
    const csv = (await a.agent.get('/app/invoices/export.csv').expect(200)).text;
    expect(csv.split('\r\n')[0]).toBe('\uFEFFNumber;Date;Type;Issuer NIF;Recipient;Recipient NIF;Tax;Total;Status;Authority code');
    expect(csv).toContain(';2.10;12.10;Queued;');
    const corrective = (await a.agent.get('/app/corrective-invoices/export.csv').expect(200)).text;
    expect(corrective.split('\r\n').filter(Boolean)).toHaveLength(1);
  });

  it('sends a bad filter back to the list, which says what is wrong', async () => {
    const a = await ready('en');
    const res = await a.agent.get('/app/invoices/export.csv?date_from=yesterday').expect(303);
    expect(res.headers.location).toBe('/app/invoices?date_from=yesterday');
  });
});
