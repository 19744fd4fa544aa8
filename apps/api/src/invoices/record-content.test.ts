import { eq } from 'drizzle-orm';
import request from 'supertest';
import { madridToday } from '@vf/core';
import { rebuildChainRecord } from '@vf/chain';
import { FULL_BATCH, invoices, submissionBatchStore } from '@vf/db';
import { buildRegFactuRequest, NS, validateEachAgainstXsd } from '@vf/xml';
import { recordElementIn } from './record-xml';
import { createSystem, createTaxpayer, invoiceBody } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { signUp, type DashboardAccount } from '@vf/dashboard/testing';

// Invoices the authority accepts and content its records can carry, each registered through the API, read back, and
// its record XML held to the authority's schema.

let t: TestApp;
let es: Ready;
let en: Ready;
beforeAll(async () => {
  t = await createTestApp();
  [es, en] = await Promise.all([ready('es'), ready('en')]);
});
afterAll(() => t.close());

type Ready = DashboardAccount & { taxpayerId: string; systemId: string };

async function ready(language: string): Promise<Ready> {
  const a = await signUp(t.app, 'Gestoría Ejemplo', language);
  return { ...a, taxpayerId: await createTaxpayer(t.app, { ...a }), systemId: await createSystem(t.app, { ...a }) };
}

const DAY = 86_400_000;
const earlier = (days: number) => madridToday(new Date(Date.now() - days * DAY));
const s1 = (base: number, tax: number) => ({
  tax_type: '01',
  regime_type: '01',
  operation_type: 'S1',
  base_amount: base,
  tax_rate: 21,
  tax_amount: tax,
});
const EMOJI = '\u{1F9FE}';

/** The examples, by name: each body's overrides of the shared F1, and what the API must show of it afterwards. */
const examples: Record<string, { body: Record<string, unknown>; shows: Record<string, unknown>; xml: RegExp[] }> = {
  'an F1 with a discount line (negative base and tax of the same sign)': {
    body: { breakdown: [s1(100, 21), s1(-10, -2.1)], total_amount: 108.9, total_tax_amount: 18.9 },
    shows: {
      breakdown: [
        expect.objectContaining({ base_amount: '100.00' }),
        expect.objectContaining({ base_amount: '-10.00', tax_amount: '-2.10' }),
      ],
    },
    xml: [/<sum1:BaseImponibleOimporteNoSujeto>-10.00</],
  },
  'a recipient identified by EU VAT number (02) without country': {
    body: {
      recipient: { name: 'Client SARL', id_type: '02', id: 'FR12345678901' },
      breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'N2', base_amount: 100 }],
      total_amount: 100,
      total_tax_amount: 0,
    },
    shows: { recipient: { name: 'Client SARL', id_type: '02', id: 'FR12345678901' } },
    xml: [/<sum1:IDOtro><sum1:IDType>02<\/sum1:IDType><sum1:ID>FR12345678901</],
  },
  'totals more than 10.00 away from the breakdown': {
    body: { total_amount: 150, total_tax_amount: 21 },
    shows: {
      warnings: [
        expect.objectContaining({
          field: 'total_amount',
          authority_code: 2005,
          explanation: { es: expect.stringMatching(/importe total/), en: expect.stringMatching(/total does not match/) },
        }),
      ],
    },
    xml: [/<sum1:ImporteTotal>150.00</],
  },
  'a corrective invoice dated before the invoice it corrects': {
    body: {
      invoice_type: 'R4',
      invoice_date: earlier(5),
      corrected_invoices: [{ invoice_number: 'LATER-1', invoice_date: earlier(1) }],
      breakdown: [s1(-100, -21)],
      total_amount: -121,
      total_tax_amount: -21,
    },
    shows: { corrected_invoices: [{ invoice_number: 'LATER-1', invoice_date: earlier(1) }] },
    xml: [/<sum1:FacturasRectificadas>/],
  },
  'a description of 300 emoji': {
    body: { description: EMOJI.repeat(300) },
    shows: { description: EMOJI.repeat(300) },
    xml: [new RegExp(`<sum1:DescripcionOperacion>(${EMOJI}){300}<`, 'u')],
  },
  // The records reach PostgreSQL as array literals: what is special in one comes back exactly as sent.
  'a description that is the word NULL': {
    body: { description: 'NULL' },
    shows: { description: 'NULL' },
    xml: [/<sum1:DescripcionOperacion>NULL</],
  },
  'a description with quotes, a backslash, braces and commas': {
    body: { description: 'A "B", {C} \\ D' },
    shows: { description: 'A "B", {C} \\ D' },
    xml: [],
  },
  'an F3 with the simplified invoices it replaces': {
    body: { invoice_type: 'F3', substituted_invoices: [{ invoice_number: 'T-77', invoice_date: earlier(3) }] },
    shows: { substituted_invoices: [{ invoice_number: 'T-77', invoice_date: earlier(3) }] },
    xml: [/<sum1:FacturasSustituidas><sum1:IDFacturaSustituida><sum1:IDEmisorFactura>/, /<sum1:NumSerieFactura>T-77</],
  },
  'several recipients': {
    body: {
      recipient: undefined,
      recipients: [
        { name: 'Uno SL', nif: 'B85905495' },
        { name: 'Dos SA', nif: 'A86018322' },
        { name: 'Drei GmbH', country: 'DE', id_type: '02', id: 'DE123456789' },
      ],
    },
    shows: {
      recipient: { name: 'Uno SL', nif: 'B85905495' },
      recipients: [
        { name: 'Uno SL', nif: 'B85905495' },
        { name: 'Dos SA', nif: 'A86018322' },
        { name: 'Drei GmbH', country: 'DE', id_type: '02', id: 'DE123456789' },
      ],
    },
    xml: [/(<sum1:IDDestinatario>[\s\S]*?){3}<\/sum1:Destinatarios>/],
  },
  'an invoice issued by a third party, as a qualified simplified invoice': {
    body: { issued_by: 'third_party', third_party: { name: 'Gestoría Tercera SL', nif: 'A86018322' }, simplified_art_72_73: true },
    shows: { issued_by: 'third_party', third_party: { name: 'Gestoría Tercera SL', nif: 'A86018322' }, simplified_art_72_73: true },
    xml: [
      /<sum1:FacturaSimplificadaArt7273>S</,
      /<sum1:EmitidaPorTerceroODestinatario>T<\/sum1:EmitidaPorTerceroODestinatario><sum1:Tercero><sum1:NombreRazon>Gestoría Tercera SL</,
    ],
  },
  'an invoice issued by its recipient': {
    body: { issued_by: 'recipient' },
    shows: { issued_by: 'recipient', third_party: null },
    xml: [/<sum1:EmitidaPorTerceroODestinatario>D</],
  },
  'a simplified invoice without identified recipient above 3,000.00': {
    body: {
      invoice_type: 'F2',
      recipient: undefined,
      without_recipient_art_61d: true,
      breakdown: [s1(5000, 1050)],
      total_amount: 6050,
      total_tax_amount: 1050,
    },
    shows: { without_recipient_art_61d: true, recipients: [] },
    xml: [/<sum1:FacturaSinIdentifDestinatarioArt61d>S</],
  },
  'a substitution with its recargo, on a coupon': {
    body: {
      invoice_type: 'R1',
      corrected_invoices: [{ invoice_number: 'ORIG-9', invoice_date: earlier(10) }],
      rectification_type: 'S',
      rectified_base_amount: 100,
      rectified_tax_amount: 21,
      rectified_surcharge_amount: 5.2,
      coupon: true,
    },
    shows: { rectified_surcharge_amount: '5.20', coupon: true },
    xml: [/<sum1:CuotaRectificada>21.00<\/sum1:CuotaRectificada><sum1:CuotaRecargoRectificado>5.20</, /<sum1:Cupon>S</],
  },
  'regime 06 (group of entities) with its cost base': {
    body: {
      breakdown: [
        { tax_type: '01', regime_type: '06', operation_type: 'S1', base_amount: 100, cost_base_amount: 80, tax_rate: 21, tax_amount: 16.8 },
      ],
      total_amount: 116.8,
      total_tax_amount: 16.8,
    },
    shows: { breakdown: [expect.objectContaining({ regime_type: '06', cost_base_amount: '80.00', tax_amount: '16.80' })] },
    xml: [/<sum1:BaseImponibleOimporteNoSujeto>100.00<\/sum1:BaseImponibleOimporteNoSujeto><sum1:BaseImponibleACoste>80.00</],
  },
};

/** The record's XML as the API serves it, in a request envelope as the authority's schema wants it. */
function envelope(recordXml: string): string {
  return (
    `<S:Envelope xmlns:S="${NS.soapenv}"><S:Body><lr:RegFactuSistemaFacturacion xmlns:lr="${NS.suministroLR}">` +
    `<lr:Cabecera><x:ObligadoEmision xmlns:x="${NS.suministroInformacion}"><x:NombreRazon>Contribuyente</x:NombreRazon><x:NIF>89890001K</x:NIF></x:ObligadoEmision></lr:Cabecera>` +
    `<lr:RegistroFactura>${recordXml.replace(/<\?xml[^>]*\?>/, '')}</lr:RegistroFactura></lr:RegFactuSistemaFacturacion></S:Body></S:Envelope>`
  );
}

describe('invoices the authority accepts, and what its records can say', () => {
  const registered: Record<string, string> = {};

  beforeAll(async () => {
    for (const [name, { body }] of Object.entries(examples)) {
      const res = await request(t.app)
        .post('/api/v1/invoices')
        .set(en.auth)
        .send(invoiceBody(en.taxpayerId, en.systemId, body));
      if (res.status !== 201) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
      registered[name] = res.body.data.id;
    }
  });

  it.each(Object.keys(examples))('registers %s and reads it back as sent', async (name) => {
    const detail = (await request(t.app).get(`/api/v1/invoices/${registered[name]}`).set(en.auth).expect(200)).body.data;
    expect(detail).toMatchObject(examples[name].shows);
  });

  it('writes every one into a record valid against the schema, with its content in it', async () => {
    const xmls = await Promise.all(
      Object.keys(examples).map(async (name) => {
        const detail = (await request(t.app).get(`/api/v1/invoices/${registered[name]}`).set(en.auth).expect(200)).body.data;
        return (await request(t.app).get(detail.records[0].xml_url).set(en.auth).expect(200)).text;
      }),
    );
    const verdicts = await validateEachAgainstXsd(xmls.map(envelope), 'request');
    Object.keys(examples).forEach((name, i) => {
      expect({ name, errors: verdicts[i].errors }).toEqual({ name, errors: [] });
      for (const pattern of examples[name].xml) expect(xmls[i]).toMatch(pattern);
    });
  });

  it('sends exactly that XML: the records the worker loads and rebuilds from the database are the ones the API showed', async () => {
    const ids = Object.values(registered);
    const [{ chainId }] = await t.db.db.select({ chainId: invoices.chainId }).from(invoices).where(eq(invoices.id, ids[0]));
    const batch = await submissionBatchStore.load(t.db.db, chainId, FULL_BATCH);
    const message = buildRegFactuRequest({ obligado: { name: 'Contribuyente', nif: '89890001K' } }, batch.map(rebuildChainRecord));
    for (const id of ids) {
      const shown = (await request(t.app).get(`/api/v1/invoices/${id}/records/${id}/xml`).set(en.auth).expect(200)).text;
      expect(recordElementIn(message, id)).toBe(shown);
    }
  });

  it('answers the totals warning with its code and explanation on registration and on /validate alike', async () => {
    const body = invoiceBody(en.taxpayerId, en.systemId, examples['totals more than 10.00 away from the breakdown'].body);
    const validated = (await request(t.app).post('/api/v1/invoices/validate').set(en.auth).send(body).expect(200)).body.data;
    const registeredNow = (await request(t.app).post('/api/v1/invoices').set(en.auth).send(body).expect(201)).body.data;
    expect(validated.warnings).toEqual(registeredNow.warnings);
    expect(registeredNow.warnings).toEqual([expect.objectContaining({ authority_code: 2005, explanation: expect.any(Object) })]);
  });

  it('still refuses a third party or a recipient that is the issuing taxpayer itself (1188, 1193)', async () => {
    const { nif } = (await request(t.app).get(`/api/v1/taxpayers/${en.taxpayerId}`).set(en.auth).expect(200)).body.data;
    const third = await request(t.app)
      .post('/api/v1/invoices')
      .set(en.auth)
      .send(invoiceBody(en.taxpayerId, en.systemId, { issued_by: 'third_party', third_party: { name: 'Yo', nif } }))
      .expect(422);
    expect(third.body.errors).toEqual([expect.objectContaining({ field: 'third_party.nif', authority_code: 1188 })]);
    const recipients = [
      { name: 'Otro SL', nif: 'B85905495' },
      { name: 'Yo', nif },
    ];
    const mine = await request(t.app)
      .post('/api/v1/invoices/validate')
      .set(en.auth)
      .send(invoiceBody(en.taxpayerId, en.systemId, { recipient: undefined, recipients }))
      .expect(422);
    expect(mine.body.errors).toEqual([expect.objectContaining({ field: 'recipients[1].nif', authority_code: 1193 })]);
  });
});

describe('the dashboard invoice page', () => {
  const content = {
    recipient: undefined,
    recipients: [
      { name: 'Uno SL', nif: 'B85905495' },
      { name: 'Client SARL', id_type: '02', id: 'FR12345678901' },
    ],
    issued_by: 'third_party',
    third_party: { name: 'Gestoría Tercera SL', nif: 'A86018322' },
    simplified_art_72_73: true,
    breakdown: [
      { tax_type: '01', regime_type: '06', operation_type: 'S1', base_amount: 100, cost_base_amount: 80, tax_rate: 21, tax_amount: 16.8 },
    ],
    total_amount: 116.8,
    total_tax_amount: 16.8,
  };

  async function page(a: Ready, body: Record<string, unknown>): Promise<string> {
    const { id } = (
      await request(t.app)
        .post('/api/v1/invoices')
        .set(a.auth)
        .send(invoiceBody(a.taxpayerId, a.systemId, body))
        .expect(201)
    ).body.data;
    return (await a.agent.get(`/app/invoices/${id}`).expect(200)).text;
  }

  it('shows the recipients, the third party, the flags and the cost base, in Spanish', async () => {
    const text = await page(es, content);
    expect(text).toMatch(
      /<dt>Destinatarios<\/dt><dd><ol data-testid="recipients"><li>Uno SL · NIF <code>B85905495<\/code><\/li><li>Client SARL · NIF-IVA: <code>FR12345678901<\/code>/,
    );
    expect(text).toContain(
      'un tercero, en nombre del emisor (EmitidaPorTerceroODestinatario = T): Gestoría Tercera SL · NIF <code>A86018322</code>',
    );
    expect(text).toContain('Factura simplificada cualificada (arts. 7.2 y 7.3 del RD 1619/2012)');
    expect(text).toContain('Base a coste');
    const sub = await page(es, {
      invoice_type: 'R1',
      corrected_invoices: [{ invoice_number: 'ORIG-3', invoice_date: earlier(9) }],
      rectification_type: 'S',
      rectified_base_amount: 100,
      rectified_tax_amount: 21,
      rectified_surcharge_amount: 5.2,
      coupon: true,
    });
    expect(sub).toMatch(/<dt>Recargo rectificado<\/dt><dd>5,20/);
    expect(sub).toMatch(/data-testid="qualifiers"><ul><li>Cupón<\/li>/);
    const f3 = await page(es, { invoice_type: 'F3', substituted_invoices: [{ invoice_number: 'T-5', invoice_date: earlier(4) }] });
    expect(f3).toMatch(/<dt>Sustituye a<\/dt><dd data-testid="substitutes"><ul><li><code>T-5<\/code> del /);
    expect(text).toMatch(/data-label="Base a coste">80,00\u00a0€</);
    const byRecipient = await page(es, { issued_by: 'recipient' });
    expect(byRecipient).toContain(
      '<dd data-testid="issued-by">el destinatario, en nombre del emisor (EmitidaPorTerceroODestinatario = D)</dd>',
    );
    const anonymous = await page(es, {
      invoice_type: 'F2',
      recipient: undefined,
      without_recipient_art_61d: true,
      breakdown: [s1(5000, 1050)],
      total_amount: 6050,
      total_tax_amount: 1050,
    });
    expect(anonymous).toContain('<li>Factura sin identificación del destinatario (art. 6.1.d del RD 1619/2012)</li>');
  });

  it('shows the same in English, and explains a totals warning in the page language', async () => {
    const text = await page(en, content);
    expect(text).toContain('<dt>Recipients</dt>');
    expect(text).toContain('a third party, on the issuer&#39;s behalf (EmitidaPorTerceroODestinatario = T): Gestoría Tercera SL');
    expect(text).toContain('Cost base');
    // A recipient identified by EU VAT number alone is listed by that number (and exported the same way).
    const list = (await en.agent.get('/app/invoices?q=').expect(200)).text;
    expect(list).toContain('Client SARL <span class="muted mono">FR12345678901</span>');
    expect(list).not.toContain('undefined');
    const warned = await page(es, { total_amount: 150, total_tax_amount: 21 });
    expect(warned).toMatch(/<li><strong>2005<\/strong> El importe total no cuadra/);
  });
});
