import { sql } from 'drizzle-orm';
import request from 'supertest';
import { submissionInvoices, submissions } from '@vf/db';
import { createSystem, createTaxpayer, invoiceBody, createTestApp, type TestApp } from '@vf/api/testing';
import { csrfTokenIn, signUp, submitForm, type DashboardAccount } from '../testing/dashboard-agent';
import { es } from './catalogue/es';
import type { Locale } from './i18n';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/**
 * What a reader sees: the text and the attributes a browser shows or reads aloud. Left out: scripts, code and XML
 * (identifiers, not words), and text marked as another language (the authority's own Spanish message).
 */
function visibleText(page: string): string {
  const shown = [...page.matchAll(/\s(?:title|aria-label|alt|placeholder|data-confirm)="([^"]*)"/g)].map((m) => m[1]);
  const body = page
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<(code|pre)[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<(p|span|div)[^>]* lang="[^"]+"[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ');
  return `${body} ${shown.join(' ')}`
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

// i18next prints an unknown key as the key itself ("detail.status"); no section name is followed by ".word" in real text.
const missingKey = new RegExp(`(?<![\\w.@/-])(?:${Object.keys(es).join('|')})\\.[\\w-]+`, 'g');

/** Words of the other language that only an untranslated dashboard text would put on the page. */
const FOREIGN: Record<Locale, RegExp> = {
  es: /\b(Status|Invoice|Invoices|Submission|Record|Records|Cancel|Correct|Events?|Delete|Recipient|Breakdown|Total tax|none yet|Not found|Signing secret|Download|Send|Back|Created|Pending|Attempts|Reload|Copy|the|of the|must|such as|is required|Something went wrong)\b/g,
  en: /\b(Factura|Facturas|Estado|Anular|Anulada|Corregir|Eventos?|Destinatario|Desglose|todavía|Enviar|Envío|Respuesta|Historial|Importe|Cuota|Secreto|Eliminar|Añadir|Pendiente|Volver|Registros)\b/g,
};

type Ready = DashboardAccount & { taxpayerId: string; systemId: string };

async function register(a: Ready, overrides: Record<string, unknown> = {}) {
  const res = await request(t.app)
    .post('/api/v1/invoices')
    .set(a.auth)
    .send(invoiceBody(a.taxpayerId, a.systemId, overrides))
    .expect(201);
  return res.body.data as { id: string };
}

async function answer(id: string, status: string, code: number | null = null, message: string | null = null) {
  await t.db.db.execute(sql`UPDATE invoices SET authority_status = ${status}, authority_code = ${code}, authority_message = ${message},
    next_attempt_at = ${status === 'error' ? sql`now() + interval '5 minutes'` : null} WHERE id = ${id}`);
}

/** Every page of the dashboard for one reader: each invoice status with its actions, the forms, webhooks, errors. */
async function everyPage(language: Locale): Promise<Record<string, { status: number; text: string }>> {
  const account = await signUp(t.app, 'Gestoría Ejemplo', language);
  const a: Ready = {
    ...account,
    taxpayerId: await createTaxpayer(t.app, { ...account }),
    systemId: await createSystem(t.app, { ...account }),
  };

  const queued = await register(a, { invoice_number: 'F-1' });
  const sent = await register(a, { invoice_number: 'F-2' });
  await answer(sent.id, 'sent');
  const accepted = await register(a, { invoice_number: 'F-3', invoice_date: '2026-01-15' });
  await answer(accepted.id, 'accepted');
  const warned = await register(a, { invoice_number: 'F-4' });
  await answer(warned.id, 'accepted_with_warnings', 2004, 'Fecha fuera de margen');
  const rejected = await register(a, { invoice_number: 'F-5' });
  await answer(rejected.id, 'rejected', 1104, 'Valor del campo NumSerieFactura incorrecto');
  const failed = await register(a, { invoice_number: 'F-6' });
  await answer(failed.id, 'error', 4112, 'Codigo[4112].El titular del certificado debe ser Obligado Emisión');
  const corrective = await register(a, {
    invoice_number: 'R-1',
    invoice_type: 'R1',
    rectification_type: 'I',
    corrected_invoices: [{ invoice_number: 'F-3', invoice_date: '2026-01-15' }],
    breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: -100, tax_rate: 21, tax_amount: -21 }],
    total_amount: -121,
    total_tax_amount: -21,
  });

  // An exchange with the authority, so the detail shows a submission with its XML.
  const [{ chainId }] = (
    await t.db.db.execute<{ chainId: string }>(sql`SELECT chain_id AS "chainId" FROM invoices WHERE id = ${accepted.id}`)
  ).rows;
  const [submission] = await t.db.db
    .insert(submissions)
    .values({
      taxpayerId: a.taxpayerId,
      chainId,
      outcome: 'answered',
      workerId: 'w1',
      endpoint: 'https://sim/ws',
      certificateMode: 'platform',
      recordCount: 1,
      requestXml: '<x/>',
      responseXml: '<y/>',
      httpStatus: 200,
      csv: 'CSV-1',
      finishedAt: new Date(),
    })
    .returning();
  await t.db.db.insert(submissionInvoices).values({ submissionId: submission.id, invoiceId: accepted.id, position: 0 });

  // A correction (subsanación) of the accepted invoice and a cancellation of the rejected one's neighbour.
  const form = (await a.agent.get(`/app/invoices/${warned.id}/correct`).expect(200)).text;
  const fields = Object.fromEntries([...form.matchAll(/<input [^>]*?name="([^"]+)"[^>]*? value="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  await a.agent
    .post(`/app/invoices/${warned.id}/correct`)
    .type('form')
    .send({ ...fields, _csrf: csrfTokenIn(form), invoice_type: 'F1', description: 'Texto corregido' })
    .expect(303);
  const cancelPage = (await a.agent.get(`/app/invoices/${accepted.id}`).expect(200)).text;
  await a.agent
    .post(`/app/invoices/${accepted.id}/cancel`)
    .type('form')
    .send({ _csrf: csrfTokenIn(cancelPage), reason: 'Duplicada', confirm: 'yes' })
    .expect(303);

  const pages: Record<string, { status: number; text: string }> = {};
  const visit = async (name: string, path: string, status = 200) => {
    const res = await a.agent.get(path).expect(status);
    pages[name] = { status: res.status, text: res.text };
  };

  const added = await submitForm(a.agent, '/app/webhooks', '/app/webhooks', {
    url: 'https://erp.example.es/avisos',
    events: 'invoice.error',
  });
  await visit('webhook with its secret', added.headers.location);
  const webhookPath = added.headers.location.split('?')[0];
  const tested = await submitForm(a.agent, webhookPath, `${webhookPath}/test`, {});
  await visit('webhook with a delivery', tested.headers.location);
  await visit('webhooks', '/app/webhooks');
  const badWebhook = await submitForm(a.agent, '/app/webhooks', '/app/webhooks', { url: 'https://erp.example.es/otra' });
  pages['webhook form with errors'] = { status: badWebhook.status, text: badWebhook.text };

  for (const [name, id] of Object.entries({ queued, sent, accepted, warned, rejected, failed, corrective }))
    await visit(`invoice ${name}`, `/app/invoices/${id.id}`);
  await visit('invoice after a refused cancellation', `/app/invoices/${rejected.id}?notice=cancellation_awaiting`);
  await visit('correction form', `/app/invoices/${queued.id}/correct`);
  await visit('new invoice form', '/app/invoices/new');
  const badInvoice = await submitForm(a.agent, '/app/invoices/new', '/app/invoices/new', {
    invoice_number: '',
    description: '',
    'recipient.id': 'FR1',
    'breakdown.0.base_amount': 'mucho',
  });
  pages['new invoice form with errors'] = { status: badInvoice.status, text: badInvoice.text };
  // What the census and VIES said of the recipients, kept on an invoice as the API keeps it.
  const kept = [
    {
      nif: '89890001K',
      result: 'invalid',
      detail: 'similar',
      census_name: 'Cliente SL',
      source: 'aeat_census',
      checked_at: '2026-11-20T09:30:00Z',
    },
    { nif: '89890002E', result: 'valid', detail: 'identified', source: 'cache', checked_at: '2026-11-20T09:30:00Z' },
    {
      vat_number: 'FR200',
      result: 'invalid',
      detail: 'not_identified',
      request_identifier: 'WAPI1',
      source: 'vies',
      checked_at: '2026-11-20T09:30:00Z',
    },
    {
      vat_number: 'NL301',
      result: 'unknown',
      detail: 'not_processed',
      fault_code: 'MS_UNAVAILABLE',
      source: 'vies',
      checked_at: '2026-11-20T09:30:00Z',
    },
  ];
  await t.db.db.execute(sql`UPDATE invoices SET recipient_check = ${JSON.stringify(kept)}::jsonb WHERE id = ${queued.id}`);
  await visit('invoice with its recipient check', `/app/invoices/${queued.id}`);
  const post = async (name: string, id: string, changes: Record<string, string>) => {
    const page = (await a.agent.get(`/app/invoices/${id}/correct`).expect(200)).text;
    const values = Object.fromEntries([...page.matchAll(/<input [^>]*?name="([^"]+)"[^>]*? value="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const res = await a.agent
      .post(`/app/invoices/${id}/correct`)
      .type('form')
      .send({ ...values, _csrf: csrfTokenIn(page), invoice_type: 'F1', ...changes });
    pages[name] = { status: res.status, text: res.text };
  };
  await post('correction form with errors', rejected.id, { description: '', total_amount: 'mucho' });
  await post('correction refused while the authority answers', sent.id, { description: 'Otra' });
  await visit('overview', '/app');
  await visit('invoices', '/app/invoices');
  await visit('corrective invoices', '/app/corrective-invoices');
  await visit('taxpayers', '/app/taxpayers');
  await visit('taxpayer', `/app/taxpayers/${a.taxpayerId}`);
  await visit('chain', `/app/taxpayers/${a.taxpayerId}/chain`);
  await visit('checks, exports and remissions', `/app/taxpayers/${a.taxpayerId}/kept`);
  const check = await submitForm(a.agent, `/app/taxpayers/${a.taxpayerId}/kept`, `/app/taxpayers/${a.taxpayerId}/kept/check`, {
    subject: 'records',
  });
  pages['a check and its result'] = { status: check.status, text: check.text };
  const noReference = await submitForm(a.agent, `/app/taxpayers/${a.taxpayerId}/kept`, `/app/taxpayers/${a.taxpayerId}/kept/remission`, {
    requirement_reference: '',
    period_from: '2026-01-01',
    period_to: '2026-01-31',
  });
  pages['remission form with errors'] = { status: noReference.status, text: noReference.text };
  await visit('systems', '/app/systems');
  await visit('api key', '/app/api-key');
  await visit('not found', '/app/invoices/00000000-0000-4000-8000-000000000000', 404);
  const refused = await a.agent.post('/app/webhooks').type('form').send({ url: 'https://erp.example.es/x' });
  pages['form without its token'] = { status: refused.status, text: refused.text };
  const compressed = await a.agent
    .post('/app/webhooks')
    .set('Content-Encoding', 'gzip')
    .set('Content-Type', 'multipart/form-data; boundary=x')
    .send('--x--');
  pages['refused form'] = { status: compressed.status, text: compressed.text };
  return pages;
}

describe.each<Locale>(['es', 'en'])('every dashboard page in %s', (language) => {
  let pages: Record<string, { status: number; text: string }>;
  beforeAll(async () => {
    pages = await everyPage(language);
  });

  it('renders each page with every text found in the catalogue', () => {
    const missing = Object.entries(pages).flatMap(([name, p]) =>
      (visibleText(p.text).match(missingKey) ?? []).map((key) => `${name}: ${key}`),
    );
    expect(missing).toEqual([]);
    expect(Object.keys(pages).length).toBeGreaterThan(20);
  });

  it("says nothing in the other language and sets the page's lang", () => {
    const foreign = Object.entries(pages).flatMap(([name, p]) =>
      (visibleText(p.text).match(FOREIGN[language]) ?? []).map((word) => `${name}: ${word}`),
    );
    expect(foreign).toEqual([]);
    for (const [name, p] of Object.entries(pages))
      expect({ name, lang: /<html lang="([^"]+)">/.exec(p.text)?.[1] }).toEqual({ name, lang: language });
  });

  it('shows the actions and explanations each status calls for', () => {
    const words =
      language === 'es'
        ? { resend: 'Reenviar', cancel: 'Anular factura', cancelled: 'Esta factura está anulada.' }
        : { resend: 'Resend', cancel: 'Cancel invoice', cancelled: 'This invoice is cancelled.' };
    expect(pages['invoice failed'].text).toContain(`data-testid="resend">${words.resend}</button>`);
    expect(pages['invoice queued'].text).toContain(words.cancel);
    expect(pages['invoice accepted'].text).toContain(words.cancelled);
    expect(pages['invoice rejected'].text).toContain('data-testid="authority-explanation"');
    expect(pages['form without its token'].status).toBe(403);
    expect(pages['refused form'].status).toBe(415);
    expect(pages['refused form'].text).toContain(language === 'es' ? 'No se ha podido completar' : 'Send the form uncompressed.');
    expect(pages['correction form with errors'].status).toBe(422);
    // The field is named by the form's label; the problem is said in the page's language.
    expect(pages['correction form with errors'].text).toContain(
      language === 'es' ? 'Importe total debe ser un importe' : 'Total must be a decimal amount',
    );
    expect(pages['correction refused while the authority answers'].status).toBe(409);
  });
});
