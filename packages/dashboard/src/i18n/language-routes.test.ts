import { eq } from 'drizzle-orm';
import request from 'supertest';
import { CODE_CATALOGUE, explainCause, inPlainWords } from '@vf/core';
import { accounts, invoices } from '@vf/db';
import { createSystem, createTaxpayer, invoiceBody, createTestApp, type TestApp } from '@vf/api/testing';
import { browser, signUp, type DashboardAccount } from '../testing/dashboard-agent';
import { LOCALE_COOKIE } from './locale-middleware';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const langOf = (page: string) => /<html lang="([^"]+)">/.exec(page)?.[1];
const cookieNamed = (res: request.Response, name: string) =>
  ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${name}=`));

/** 14,520.00 € with 2,520.00 € of VAT, registered through the API. */
async function withBigInvoice(a: DashboardAccount) {
  const taxpayerId = await createTaxpayer(t.app, { ...a });
  const systemId = await createSystem(t.app, { ...a });
  const body = invoiceBody(taxpayerId, systemId, {
    invoice_number: 'F-14520',
    invoice_date: '2026-11-22',
    breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: 12000, tax_rate: 21, tax_amount: 2520 }],
    total_amount: 14520,
    total_tax_amount: 2520,
  });
  return (await request(t.app).post('/api/v1/invoices').set(a.auth).send(body).expect(201)).body.data as { id: string };
}

describe('the language of the dashboard', () => {
  it('is Spanish without a preference and for a reader who prefers it or a language it does not have', async () => {
    for (const preference of [null, 'es-ES,es;q=0.9', 'fr-FR,fr;q=0.9', 'de, es;q=0.5, en;q=0.2']) {
      const page = (await browser(t.app, preference).get('/login').expect(200)).text;
      expect({ preference, lang: langOf(page) }).toEqual({ preference, lang: 'es' });
      expect(page).toContain('<h1>Iniciar sesión</h1>');
      expect(page).toContain('<label for="field-password">Contraseña</label>');
    }
  });

  it('is English for a reader whose browser asks for English first', async () => {
    for (const preference of ['en', 'en-GB,en;q=0.9,es;q=0.5']) {
      const res = await browser(t.app, preference).get('/login').expect(200);
      expect({ preference, lang: langOf(res.text) }).toEqual({ preference, lang: 'en' });
      expect(res.text).toContain('<h1>Sign in</h1>');
      // A cache must not hand this page to a Spanish reader.
      expect(res.headers.vary).toMatch(/Accept-Language/);
    }
  });

  it('switches from every page and remembers the choice in a cookie, over what the browser asks for', async () => {
    const a = await signUp(t.app, 'Gestoría Ejemplo', 'es');
    const overview = (await a.agent.get('/app?status=x').expect(200)).text;
    expect(langOf(overview)).toBe('es');
    expect(overview).toContain('<a href="/app?status=x&amp;lang=en" lang="en" hreflang="en">English</a>');
    expect(overview).toContain('<span aria-current="true" lang="es">Español</span>');

    const switched = await a.agent.get('/app/invoices?q=F-1&lang=en').expect(303);
    // Back to the same page, its other parameters kept.
    expect(switched.headers.location).toBe('/app/invoices?q=F-1');
    const cookie = cookieNamed(switched, LOCALE_COOKIE)!;
    expect(cookie).toMatch(/^vf_lang=en;/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Max-Age=\d{6,}/);

    // The browser still sends Accept-Language: es; the remembered choice wins on every page.
    for (const path of ['/app', '/app/invoices', '/app/api-key', '/app/taxpayers', '/app/systems']) {
      const page = (await a.agent.get(path).expect(200)).text;
      expect({ path, lang: langOf(page) }).toEqual({ path, lang: 'en' });
    }
    expect((await a.agent.get('/app').expect(200)).text).toContain('>Overview</a>');

    await a.agent.get('/app?lang=es').expect(303);
    const back = (await a.agent.get('/app').expect(200)).text;
    expect(langOf(back)).toBe('es');
    expect(back).toContain('<a href="/app" aria-current="page">Resumen</a>');
  });

  it('ignores a language it does not have in the switch', async () => {
    const res = await browser(t.app, 'es').get('/login?lang=xx').expect(200);
    expect(langOf(res.text)).toBe('es');
    expect(cookieNamed(res, LOCALE_COOKIE)).toBeUndefined();
  });
});

describe('Spanish formats and texts', () => {
  it('writes amounts and dates the Spanish way, in Madrid time, with statuses, types and notices in Spanish', async () => {
    const a = await signUp(t.app, 'Gestoría Ejemplo', 'es');
    await withBigInvoice(a);
    // 22:27 UTC on 22 November is 23:27 in Madrid.
    await t.db.db
      .update(accounts)
      .set({ apiKeyCreatedAt: new Date('2026-11-22T22:27:00Z') })
      .where(eq(accounts.email, a.email));

    const list = (await a.agent.get('/app/invoices').expect(200)).text;
    expect(list).toContain('data-testid="total">14.520,00\u00a0€</td>');
    expect(list).toContain('data-testid="tax">2520,00\u00a0€</td>'.replace('2520', '2.520'));
    expect(list).toContain('<td data-label="Fecha" class="nowrap">22/11/2026</td>');
    expect(list).toContain('>En cola</span>');
    expect(list).toContain('<abbr title="F1 · Factura">F1</abbr>');
    expect(list).toContain('<strong>1 factura</strong>');

    const key = (await a.agent.get('/app/api-key').expect(200)).text;
    expect(key).toContain('<dt>Emitida</dt><dd>22/11/2026 23:27</dd>');

    expect((await a.agent.get('/app/systems?notice=system_deleted').expect(200)).text).toContain('Sistema informático eliminado.');
  });

  it('writes the same figures the English way for an English reader', async () => {
    const a = await signUp(t.app, 'Gestoría Ejemplo', 'en');
    await withBigInvoice(a);
    await t.db.db
      .update(accounts)
      .set({ apiKeyCreatedAt: new Date('2026-11-22T22:27:00Z') })
      .where(eq(accounts.email, a.email));
    const list = (await a.agent.get('/app/invoices').expect(200)).text;
    expect(list).toContain('data-testid="total">€14,520.00</td>');
    expect(list).toContain('>Queued</span>');
    expect((await a.agent.get('/app/api-key').expect(200)).text).toContain('<dt>Issued</dt><dd>22/11/2026 23:27</dd>');
  });

  it('says form errors in Spanish, naming the field by its Spanish label', async () => {
    const a = await signUp(t.app, 'Gestoría Ejemplo', 'es');
    const bad = await a.agent.get('/app/invoices?date_from=ayer').expect(422);
    expect(bad.text).toContain('<h2 id="error-summary-title">Hay un problema</h2>');
    expect(bad.text).toContain('Fecha desde no tiene el formato esperado.');
    const order = await a.agent.get('/app/invoices?date_from=2026-03-01&date_to=2026-02-01').expect(422);
    expect(order.text).toContain('La fecha final no puede ser anterior a la inicial.');

    const signup = await browser(t.app, 'es').get('/signup').expect(200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(signup.text)![1];
    const cookies = ([] as string[])
      .concat(signup.headers['set-cookie'] ?? [])
      .map((c) => c.split(';')[0])
      .join('; ');
    const refused = await request(t.app)
      .post('/signup')
      .set('Accept-Language', 'es')
      .set('Cookie', cookies)
      .type('form')
      .send({ _csrf: csrf, name: '', email: 'no-es-un-correo', password: 'corta', password_confirmation: 'corta' })
      .expect(422);
    expect(refused.text).toContain('Tu nombre o empresa: este campo es obligatorio.');
    expect(refused.text).toContain('Contraseña es demasiado corto.');
  });

  it("explains an authority code in the reader's language, from the same texts the API uses", async () => {
    const a = await signUp(t.app, 'Gestoría Ejemplo', 'es');
    const { id } = await withBigInvoice(a);
    await t.db.db
      .update(invoices)
      .set({
        authorityStatus: 'error',
        authorityCode: 4112,
        authorityMessage: 'Codigo[4112].El titular del certificado debe ser Obligado Emisión',
      })
      .where(eq(invoices.id, id));
    const text = explainCause({ code: 4112, cause: null })!;
    const poll = (language: string) =>
      a.agent.get(`/app/invoices/statuses?ids=${id}`).set('Accept', 'application/json').set('Accept-Language', language).expect(200);
    expect((await poll('es')).body.invoices[0]).toMatchObject({ label: 'Error', message: inPlainWords(text, 'es') });
    expect((await poll('en')).body.invoices[0]).toMatchObject({ label: 'Error', message: inPlainWords(text, 'en') });
    expect(inPlainWords(text, 'es')).not.toBe(inPlainWords(text, 'en'));

    const spanishPage = (await a.agent.get(`/app/invoices/${id}`).set('Accept-Language', 'es').expect(200)).text;
    expect(spanishPage).toContain(text.es.explanation);
    expect(spanishPage).not.toContain(text.en.explanation);
  });

  it('explains every kind of code it can show, on the record and in the list: in Spanish on a Spanish page, in English on an English one', async () => {
    const a = await signUp(t.app, 'Gestoría Códigos', 'es');
    const { id } = await withBigInvoice(a);
    // Read as text, unescaped, to compare with the catalogue's words.
    const page = async (language: string, path: string) =>
      (await a.agent.get(path).set('Accept-Language', language).expect(200)).text.replace(
        /&(amp|lt|gt|quot|#39|#96);/g,
        (m) => ({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#96;': '`' })[m]!,
      );
    // One code per thing the service does with it: registered with an error (2000; 2007, whose chain goes on),
    // rejected (a code with no words of its own but the table's), retried, settled through Consulta, stopped.
    const cases: [number, 'accepted_with_warnings' | 'rejected' | 'error'][] = [
      [2000, 'accepted_with_warnings'],
      [1106, 'rejected'],
      [3501, 'error'],
      [3001, 'rejected'],
      [4141, 'error'],
      [2007, 'accepted_with_warnings'],
    ];
    for (const [code, status] of cases) {
      await t.db.db.update(invoices).set({ authorityStatus: status, authorityCode: code }).where(eq(invoices.id, id));
      const { text } = CODE_CATALOGUE.get(code)!;
      const es = await page('es', `/app/invoices/${id}`);
      expect({ code, es: es.includes(text.es.explanation), en: es.includes(text.en.explanation) }).toEqual({ code, es: true, en: false });
      const en = await page('en', `/app/invoices/${id}`);
      expect({ code, en: en.includes(text.en.explanation) }).toEqual({ code, en: true });
      const list = await page('es', '/app/invoices');
      expect({ code, listed: list.includes(`title="${text.es.explanation}"`) }).toEqual({ code, listed: true });
    }
  });
});
