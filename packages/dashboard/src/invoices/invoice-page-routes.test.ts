import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import QRCode from 'qrcode';
import request from 'supertest';
import { explainCause, inPlainWords } from '@vf/core';
import { invoices, submissionInvoices, submissions } from '@vf/db';
import { createSystem, createTaxpayer, invoiceBody, pngPixels, qrPixels, createTestApp, type TestApp } from '@vf/api/testing';
import { signUp, submitForm, type DashboardAccount } from '../testing/dashboard-agent';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const corrective = (number: string, date: string) => ({
  invoice_type: 'R1',
  corrected_invoices: [{ invoice_number: number, invoice_date: date }],
  breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: -100, tax_rate: 21, tax_amount: -21 }],
  total_amount: -121,
  total_tax_amount: -21,
});

async function ready(): Promise<DashboardAccount & { taxpayerId: string; systemId: string }> {
  const a = await signUp(t.app);
  const taxpayerId = await createTaxpayer(t.app, { ...a });
  const systemId = await createSystem(t.app, { ...a });
  return { ...a, taxpayerId, systemId };
}

async function register(a: DashboardAccount & { taxpayerId: string; systemId: string }, overrides: Record<string, unknown> = {}) {
  const res = await request(t.app)
    .post('/api/v1/invoices')
    .set(a.auth)
    .send(invoiceBody(a.taxpayerId, a.systemId, overrides))
    .expect(201);
  return res.body.data as { id: string; invoice_number: string; hash: string; qr_url: string; previous_hash: string | null };
}

async function chainOf(invoiceId: string): Promise<string> {
  const [row] = await t.db.db.select({ chainId: invoices.chainId }).from(invoices).where(eq(invoices.id, invoiceId));
  return row.chainId;
}

/** The rows of the list table: each row's invoice link text. */
function listedNumbers(page: string): string[] {
  const table = /data-testid="invoice-table">([\s\S]*?)<\/table>/.exec(page)?.[1] ?? '';
  return [...table.matchAll(/<a href="\/app\/invoices\/[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
}

describe('invoice lists', () => {
  it('shows an F1 only under Invoices and an R1 only under Corrective invoices, with what it corrects', async () => {
    const a = await ready();
    const f1 = await register(a, { invoice_number: 'F-2026-001' });
    const r1 = await register(a, { invoice_number: 'R-2026-001', ...corrective('F-2026-001', '2026-01-15') });

    const normal = (await a.agent.get('/app/invoices').expect(200)).text;
    expect(listedNumbers(normal)).toEqual([f1.invoice_number]);
    const corr = (await a.agent.get('/app/corrective-invoices').expect(200)).text;
    expect(listedNumbers(corr)).toEqual([r1.invoice_number]);
    expect(corr).toContain('<span class="mono">F-2026-001</span> <span class="muted">(15/01/2026)</span>');
    expect(corr).toContain('-€121.00');
    // Each badge names its status in words and is wired for in-place updates.
    expect(corr).toContain(`<span class="badge badge--queued" data-status="queued" data-invoice-id="${r1.id}">Queued</span>`);
    expect(corr).toContain('data-status-url="/app/invoices/statuses"');
  });

  it('filters by status, type, number and date, and says when nothing matches', async () => {
    const a = await ready();
    const today = new Date().toISOString().slice(0, 10);
    const old = await register(a, { invoice_number: 'A-OLD-1', invoice_date: '2026-01-02' });
    const rejected = await register(a, { invoice_number: 'A-REJ-2' });
    const simplified = await register(a, { invoice_number: 'B-SIMP-3', invoice_type: 'F2', recipient: undefined });
    await t.db.db.update(invoices).set({ authorityStatus: 'rejected', authorityCode: 1104 }).where(eq(invoices.id, rejected.id));

    const list = async (query: string) => listedNumbers((await a.agent.get(`/app/invoices?${query}`).expect(200)).text);
    expect(await list('status=rejected')).toEqual(['A-REJ-2']);
    expect(await list('invoice_type=F2')).toEqual([simplified.invoice_number]);
    expect(await list('q=old')).toEqual([old.invoice_number]);
    expect(await list('date_from=2026-01-01&date_to=2026-01-31')).toEqual(['A-OLD-1']);
    expect((await list(`taxpayer_id=${a.taxpayerId}&date_from=${today}`)).sort()).toEqual(['A-REJ-2', 'B-SIMP-3']);
    const none = (await a.agent.get('/app/invoices?q=nothing-like-this')).text;
    expect(none).toContain('No invoices match these filters.');
  });

  it('explains a filter it cannot apply instead of ignoring it', async () => {
    const a = await ready();
    const res = await a.agent.get('/app/invoices?date_from=2026-03-01&date_to=2026-02-01');
    expect(res.status).toBe(422);
    expect(res.text).toContain('The end date must not be before the start date.');
    const bad = await a.agent.get('/app/invoices?date_from=yesterday');
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('Dated from must be a date YYYY-MM-DD.');
  });

  it('pages through long lists, newest first, without losing or repeating an invoice', async () => {
    const a = await ready();
    const numbers: string[] = [];
    for (let i = 0; i < 27; i++) numbers.push((await register(a, { invoice_number: `P-${String(i).padStart(2, '0')}` })).invoice_number);
    const first = (await a.agent.get('/app/invoices?q=P-').expect(200)).text;
    expect(listedNumbers(first)).toEqual(numbers.slice().reverse().slice(0, 25));
    expect(first).toContain('<strong>27 invoices</strong> · showing 1–25');
    const next = /<a href="(\/app\/invoices\?[^"]+)" rel="next">Next<\/a>/.exec(first)![1].replace(/&amp;/g, '&');
    // The filter travels with the page number.
    expect(next).toBe('/app/invoices?q=P-&page=2');
    const second = (await a.agent.get(next).expect(200)).text;
    expect(listedNumbers(second)).toEqual(['P-01', 'P-00']);
    expect(second).not.toContain('rel="next"');
    expect(second).toContain('<span aria-current="page" aria-label="Page 2">2</span>');
    expect(second).toContain('<a href="/app/invoices?q=P-" aria-label="Page 1">1</a>');
  });
});

describe('invoice detail', () => {
  it('shows the record, its chain links, the QR as the authority wants it printed, and each exchange with the authority', async () => {
    const a = await ready();
    const first = await register(a, { invoice_number: 'F-1' });
    const second = await register(a, { invoice_number: 'F-2', description: 'Consultoría <b>urgente</b> & más' });
    const [sub] = await t.db.db
      .insert(submissions)
      .values({
        taxpayerId: a.taxpayerId,
        chainId: await chainOf(second.id),
        outcome: 'answered',
        workerId: 'w1',
        endpoint: 'https://sim/ws',
        certificateMode: 'platform',
        recordCount: 1,
        requestXml: '<sum:RegFactuSistemaFacturacion>F-2</sum:RegFactuSistemaFacturacion>',
        responseXml: '<tikR:EstadoEnvio>Correcto</tikR:EstadoEnvio>',
        httpStatus: 200,
        csv: 'CSV-ABC',
      })
      .returning();
    await t.db.db.insert(submissionInvoices).values({ submissionId: sub.id, invoiceId: second.id, position: 0 });

    const page = (await a.agent.get(`/app/invoices/${second.id}`).expect(200)).text;
    expect(page).toContain(`<code data-testid="invoice-hash">${second.hash}</code>`);
    expect(page).toContain(`<code>${first.hash}</code>`);
    expect(page).toContain(`<a href="/app/invoices/${first.id}" rel="prev">F-1</a>`);
    expect(page).toContain('Consultoría &lt;b&gt;urgente&lt;/b&gt; &amp; más');
    expect(page).toMatch(/<p>QR tributario:<\/p>\s*<img src="\/app\/invoices\/[^"]+\/qr\.svg"[^>]*>\s*<p>VERI\*FACTU<\/p>/);
    expect(page).toContain('&lt;sum:RegFactuSistemaFacturacion&gt;F-2&lt;/sum:RegFactuSistemaFacturacion&gt;');
    expect(page).toContain('&lt;tikR:EstadoEnvio&gt;Correcto&lt;/tikR:EstadoEnvio&gt;');
    expect(page).toMatch(/Generated at<\/dt><dd><code>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}<\/code>/);
    expect(page).toContain('Status history');

    const previous = (await a.agent.get(`/app/invoices/${first.id}`)).text;
    expect(previous).toContain(`<a href="/app/invoices/${second.id}" rel="next">F-2</a>`);
    expect(previous).toContain('none: first record of the chain');
  });

  it("serves the detail page's QR image from qr_url at error-correction level M", async () => {
    const a = await ready();
    const inv = await register(a);
    const svg = await a.agent.get(`/app/invoices/${inv.id}/qr.svg`).expect(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(String(svg.body)).toBe(await QRCode.toString(inv.qr_url, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 }));
    const png = await a.agent.get(`/app/invoices/${inv.id}/qr.png`).expect(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(pngPixels(png.body as Buffer).equals(await qrPixels(inv.qr_url, 'M'))).toBe(true);
  });

  it('answers status polls for the invoices shown, with the authority code and what it means', async () => {
    const a = await ready();
    const inv = await register(a);
    await t.db.db
      .update(invoices)
      .set({ authorityStatus: 'accepted_with_warnings', authorityCode: 2004, authorityMessage: 'Fecha fuera de margen' })
      .where(eq(invoices.id, inv.id));
    const res = await a.agent
      .get(`/app/invoices/statuses?ids=${inv.id},${randomUUID()},not-a-uuid`)
      .set('Accept', 'application/json')
      .expect(200);
    expect(res.body).toEqual({
      invoices: [
        {
          id: inv.id,
          invoice_number: inv.invoice_number,
          status: 'accepted_with_warnings',
          label: 'Accepted with warnings',
          code: 2004,
          message: inPlainWords(explainCause({ code: 2004 })!, 'en'),
        },
      ],
    });
  });

  it("says a number taken by another record in the reader's language, on the page and in the poll", async () => {
    const a = await ready();
    a.agent.set('Accept-Language', 'es');
    const inv = await register(a);
    const why = `the authority already holds another record with number ${inv.invoice_number} of 01-02-2026 (huella ABC)`;
    await t.db.db
      .update(invoices)
      .set({ authorityStatus: 'rejected', authorityCode: 3000, authorityMessage: why, errorCause: 'number_taken' })
      .where(eq(invoices.id, inv.id));
    const polled = await a.agent.get(`/app/invoices/statuses?ids=${inv.id}`).set('Accept', 'application/json').expect(200);
    expect(polled.body.invoices[0].message).not.toContain('the authority');
    const page = (await a.agent.get(`/app/invoices/${inv.id}`).expect(200)).text;
    expect(page).toContain('data-testid="authority-explanation"');
    expect(page).not.toContain('the authority already holds');
  });

  it('shows what the census and VIES said of the recipients when the invoice was registered, Spanish first', async () => {
    const a = await ready();
    const inv = await register(a);
    const plain = (await a.agent.get(`/app/invoices/${inv.id}`).expect(200)).text;
    expect(plain).not.toContain('data-testid="kept-recipient-check"');
    // As the API keeps them (recipient_check of GET /api/v1/invoices/{id}).
    const kept = [
      {
        nif: '89890001K',
        result: 'invalid',
        detail: 'similar',
        census_name: 'Cliente Verdadero SL',
        source: 'aeat_census',
        checked_at: '2026-11-20T09:30:00.000Z',
      },
      { nif: '89890002E', result: 'valid', detail: 'identified', source: 'cache', checked_at: '2026-11-20T09:30:00.000Z' },
      {
        vat_number: 'FR200',
        result: 'invalid',
        detail: 'not_identified',
        request_identifier: 'WAPI000000000007',
        source: 'vies',
        checked_at: '2026-11-20T09:30:00.000Z',
      },
      {
        vat_number: 'NL301',
        result: 'unknown',
        detail: 'not_processed',
        fault_code: 'MS_UNAVAILABLE',
        source: 'vies',
        checked_at: '2026-11-20T09:30:00.000Z',
      },
    ];
    await t.db.db.update(invoices).set({ recipientCheck: kept }).where(eq(invoices.id, inv.id));
    const section = (page: string) =>
      (/data-testid="kept-recipient-check">([\s\S]*?)<\/section>/.exec(page)?.[1] ?? '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    a.agent.set('Accept-Language', 'es');
    const es = section((await a.agent.get(`/app/invoices/${inv.id}`).expect(200)).text);
    expect(es).toContain('Comprobación de los destinatarios');
    expect(es).toContain(
      '89890001K No válido Nombre similar: en el censo figura «Cliente Verdadero SL». Censo de la AEAT 20/11/2026 10:30',
    );
    expect(es).toContain('89890002E Válido Identificado en el censo de la AEAT. Censo de la AEAT (respuesta guardada)');
    expect(es).toContain('FR200 No válido VIES no conoce este NIF-IVA. Número de consulta VIES: WAPI000000000007 VIES');
    expect(es).toContain('NL301 Sin respuesta VIES no ha podido comprobarlo (MS_UNAVAILABLE): inténtelo más tarde. VIES');
    a.agent.set('Accept-Language', 'en');
    const en = section((await a.agent.get(`/app/invoices/${inv.id}`).expect(200)).text);
    expect(en).toContain('89890001K Not valid Similar name: the census holds “Cliente Verdadero SL”. Tax authority’s census');
    expect(en).toContain('NL301 No answer VIES could not check it (MS_UNAVAILABLE): try again later. VIES');
  });

  it('answers a poll from a signed-out page with 401 JSON, not a sign-in page', async () => {
    const res = await request(t.app).get(`/app/invoices/statuses?ids=${randomUUID()}`).set('Accept', 'application/json');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/Sign in again/);
  });
});

describe('an invoice in error', () => {
  it("explains the cause once in the reader's language, and its Reenviar (Resend) button puts the same record back in the queue", async () => {
    const a = await ready();
    a.agent.set('Accept-Language', 'es');
    const inv = await register(a);
    const raw = 'Codigo[4112].El titular del certificado debe ser Obligado Emisión, Colaborador Social, Apoderado o Sucesor.';
    await t.db.db
      .update(invoices)
      .set({
        authorityStatus: 'error',
        authorityCode: 4112,
        authorityMessage: raw,
        lastError: `the authority refused the whole message (env:Client): 4112 ${raw}`,
      })
      .where(eq(invoices.id, inv.id));

    const page = (await a.agent.get(`/app/invoices/${inv.id}`).expect(200)).text;
    expect(page).toMatch(
      /<p><strong>Código 4112\.<\/strong> La AEAT no acepta este certificado[^<]*<strong>Qué hacer:<\/strong> Sube un certificado/,
    );
    // The same explanation from @vf/core, in English for an English reader.
    const english = (await a.agent.get(`/app/invoices/${inv.id}`).set('Accept-Language', 'en').expect(200)).text;
    expect(english).toMatch(/<strong>Code 4112\.<\/strong> [^<]*<strong>Next step:<\/strong> Upload a certificate/);
    expect(english).not.toContain('Qué hacer');
    // The authority's own text appears once, behind a summary, not three times.
    expect(page.split('El titular del certificado debe ser').length - 1).toBe(1);
    expect(page).toContain('>Reenviar</button>');

    const done = await submitForm(a.agent, `/app/invoices/${inv.id}`, `/app/invoices/${inv.id}/resend`, {});
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe(`/app/invoices/${inv.id}?notice=invoice_resent`);
    const [row] = await t.db.db.select().from(invoices).where(eq(invoices.id, inv.id));
    expect(row).toMatchObject({ authorityStatus: 'queued', hash: inv.hash, nextAttemptAt: null });
    const after = (await a.agent.get(done.headers.location).expect(200)).text;
    expect(after).toContain('Reenvío programado');
    expect(after).not.toContain('>Reenviar</button>');

    // The status poll says the same in plain words, not the raw text.
    await t.db.db.update(invoices).set({ authorityStatus: 'error' }).where(eq(invoices.id, inv.id));
    const polled = await a.agent.get(`/app/invoices/statuses?ids=${inv.id}`).set('Accept', 'application/json').expect(200);
    expect(polled.body.invoices[0]).toMatchObject({
      status: 'error',
      code: 4112,
      message: expect.stringMatching(/^La AEAT no acepta este certificado/),
    });

    // Without the form's CSRF token the resend is refused and nothing moves.
    await a.agent.post(`/app/invoices/${inv.id}/resend`).type('form').send({}).expect(403);
    expect((await t.db.db.select().from(invoices).where(eq(invoices.id, inv.id)))[0].authorityStatus).toBe('error');
  });

  it('a resend of an invoice not in error changes nothing and says why', async () => {
    const a = await ready();
    const inv = await register(a);
    const done = await submitForm(a.agent, `/app/invoices/${inv.id}`, `/app/invoices/${inv.id}/resend`, {});
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe(`/app/invoices/${inv.id}?notice=invoice_not_resendable`);
    const [row] = await t.db.db.select().from(invoices).where(eq(invoices.id, inv.id));
    expect(row.authorityStatus).toBe('queued');
  });
});
