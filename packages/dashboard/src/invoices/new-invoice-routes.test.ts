import request from 'supertest';
import { createSystem, createTaxpayer, createTestApp, type TestApp } from '@vf/api/testing';
import { signUp, submitForm, type DashboardAccount } from '../testing/dashboard-agent';

// The dashboard's invoice form, in-process (no census or VIES configured: the browser test in e2e/src/dashboard checks
// the recipient check against the simulator). It registers through the API's own registration.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function ready(language = 'en'): Promise<DashboardAccount & { taxpayerId: string; systemId: string }> {
  const a = await signUp(t.app, 'Gestoría Ejemplo', language);
  const taxpayerId = await createTaxpayer(t.app, { ...a });
  const systemId = await createSystem(t.app, { ...a });
  return { ...a, taxpayerId, systemId };
}

const send = (a: DashboardAccount, fields: Record<string, string>) => submitForm(a.agent, '/app/invoices/new', '/app/invoices/new', fields);

const invoiceFields = (a: { taxpayerId: string; systemId: string }, number: string) => ({
  taxpayer_id: a.taxpayerId,
  computer_system_id: a.systemId,
  invoice_number: number,
  invoice_date: '2026-11-20',
  invoice_type: 'F1',
  description: 'Servicios de consultoría',
  'recipient.name': 'Cliente Uno SL',
  'recipient.nif': 'B85905495',
  'breakdown.0.base_amount': '100,00',
  'breakdown.0.tax_rate': '21',
  'breakdown.0.tax_amount': '',
  'breakdown.1.base_amount': '50.50',
  'breakdown.1.tax_rate': '10',
  'breakdown.1.tax_amount': '5.05',
});

const held = async (a: DashboardAccount) => (await request(t.app).get('/api/v1/invoices').set(a.auth).expect(200)).body.total as number;

describe('the new invoice form', () => {
  it('is linked from the invoice list and offers the account’s taxpayers and systems, today’s date and F1', async () => {
    const a = await ready();
    expect((await a.agent.get('/app/invoices').expect(200)).text).toContain('href="/app/invoices/new"');
    const page = (await a.agent.get('/app/invoices/new').expect(200)).text;
    expect(page).toContain(`<option value="${a.taxpayerId}" selected>`);
    expect(page).toContain(`<option value="${a.systemId}" selected>`);
    expect(page).toContain('data-recipient-check="/app/tax-ids/check"');
    expect(page).toContain('<option value="F1" selected>');
  });

  it('registers the invoice as POST /invoices would, its taxes and totals worked out from the lines, once', async () => {
    const a = await ready();
    const res = await send(a, invoiceFields(a, 'A-2026-0001'));
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/^\/app\/invoices\/[0-9a-f-]{36}\?notice=invoice_registered$/);
    const id = res.headers.location.split('/').pop()!.split('?')[0];
    const page = (await a.agent.get(res.headers.location).expect(200)).text;
    expect(page).toContain('Invoice registered and queued for the tax authority.');
    const invoice = (await request(t.app).get(`/api/v1/invoices/${id}`).set(a.auth).expect(200)).body.data;
    expect(invoice).toMatchObject({
      invoice_number: 'A-2026-0001',
      recipient: { name: 'Cliente Uno SL', nif: 'B85905495' },
      total_tax_amount: '26.05',
      total_amount: '176.55',
    });
    expect(invoice.breakdown.map((l: any) => [l.base_amount, l.tax_rate, l.tax_amount])).toEqual([
      ['100.00', '21.00', '21.00'],
      ['50.50', '10.00', '5.05'],
    ]);
    // The same form sent again (a second click, a reload) registers nothing more and says why.
    const again = await send(a, invoiceFields(a, 'A-2026-0001'));
    expect(again.status).toBe(409);
    expect(again.text).toContain('The issuer already has an invoice registered with this number and date.');
    expect(await held(a)).toBe(1);
  });

  it('says what is wrong field by field, in Spanish first, and registers nothing', async () => {
    const a = await ready('es');
    const res = await send(a, {
      ...invoiceFields(a, 'A-2026-0002'),
      'recipient.nif': '12345678A',
      'breakdown.0.base_amount': 'cien',
      description: '',
    });
    expect(res.status).toBe(422);
    expect(res.text).toContain('Hay 3 problemas');
    expect(res.text).toMatch(/Base, línea 1 debe ser un importe/);
    expect(res.text).toContain('value="12345678A"');
    expect(await held(a)).toBe(0);
  });

  it('registers an invoice to an EU customer by VAT number, and one the account’s default check cannot check', async () => {
    const a = await ready();
    await request(t.app).put('/api/v1/account/settings').set(a.auth).send({ recipient_check: 'refuse' }).expect(200);
    const res = await send(a, {
      ...invoiceFields(a, 'A-2026-0003'),
      'recipient.name': 'Client Test SARL',
      'recipient.nif': '',
      'recipient.id': 'FR12345678901',
    });
    expect(res.status).toBe(303);
    const id = res.headers.location.split('/').pop()!.split('?')[0];
    const invoice = (await request(t.app).get(`/api/v1/invoices/${id}`).set(a.auth).expect(200)).body.data;
    expect(invoice.recipient).toEqual({ name: 'Client Test SARL', id_type: '02', id: 'FR12345678901' });
    // No census or VIES in this deployment: a check it cannot make never refuses, and none is kept.
    expect(invoice.recipient_check).toBeUndefined();
  });
});
