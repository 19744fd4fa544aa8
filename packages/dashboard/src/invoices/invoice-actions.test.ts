import { sql } from 'drizzle-orm';
import request from 'supertest';
import { createSystem, createTaxpayer, invoiceBody, createTestApp, type TestApp } from '@vf/api/testing';
import { csrfTokenIn, signUp, type DashboardAccount } from '../testing/dashboard-agent';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Ready = DashboardAccount & { taxpayerId: string; systemId: string };

async function ready(): Promise<Ready> {
  const a = await signUp(t.app);
  return { ...a, taxpayerId: await createTaxpayer(t.app, { ...a }), systemId: await createSystem(t.app, { ...a }) };
}

async function register(a: Ready, overrides: Record<string, unknown> = {}) {
  return (
    await request(t.app)
      .post('/api/v1/invoices')
      .set(a.auth)
      .send(invoiceBody(a.taxpayerId, a.systemId, overrides))
      .expect(201)
  ).body.data as {
    id: string;
    invoice_number: string;
  };
}

async function answer(recordId: string, status: string): Promise<void> {
  await t.db.db.execute(sql`UPDATE invoices SET authority_status = ${status} WHERE id = ${recordId}`);
}

/** The named input's value on a page. */
const valueOf = (page: string, name: string) => new RegExp(`name="${name.replace(/\./g, '\\.')}"[^>]*? value="([^"]*)"`).exec(page)?.[1];

/** Every text input of the form with its value, as a browser would post them unchanged. */
const formFields = (page: string) =>
  Object.fromEntries([...page.matchAll(/<input [^>]*?name="([^"]+)"[^>]*? value="([^"]*)"/g)].map((m) => [m[1], m[2]]));

describe('correcting an invoice from the dashboard', () => {
  it('keeps what the form does not edit: the other recipients, the third party, the flags, the cost base', async () => {
    const a = await ready();
    const invoice = await register(a, {
      recipient: undefined,
      recipients: [
        { name: 'Uno SL', nif: 'B85905495' },
        { name: 'Dos SA', nif: 'A86018322' },
      ],
      issued_by: 'third_party',
      third_party: { name: 'Gestoría SL', nif: 'B63272603' },
      simplified_art_72_73: true,
      breakdown: [
        { tax_type: '01', regime_type: '06', operation_type: 'S1', base_amount: 100, cost_base_amount: 80, tax_rate: 21, tax_amount: 16.8 },
      ],
      total_amount: 116.8,
      total_tax_amount: 16.8,
    });
    await answer(invoice.id, 'accepted');
    const form = (await a.agent.get(`/app/invoices/${invoice.id}/correct`).expect(200)).text;
    expect(valueOf(form, 'breakdown.0.cost_base_amount')).toBe('80.00');
    const posted = await a.agent
      .post(`/app/invoices/${invoice.id}/correct`)
      .type('form')
      .send({ ...formFields(form), _csrf: csrfTokenIn(form), invoice_type: 'F1', description: 'Corregida', rectification_type: '' });
    expect(posted.status).toBe(303);
    const detail = (await request(t.app).get(`/api/v1/invoices/${invoice.id}`).set(a.auth).expect(200)).body.data;
    expect(detail.records).toHaveLength(2);
    expect(detail).toMatchObject({
      description: 'Corregida',
      recipients: [
        { name: 'Uno SL', nif: 'B85905495' },
        { name: 'Dos SA', nif: 'A86018322' },
      ],
      issued_by: 'third_party',
      third_party: { name: 'Gestoría SL', nif: 'B63272603' },
      simplified_art_72_73: true,
      breakdown: [expect.objectContaining({ cost_base_amount: '80.00' })],
    });
  });

  it('offers a form prefilled with the current content, appends the subsanación and shows every record with its flags and XML', async () => {
    const a = await ready();
    const invoice = await register(a, { description: 'Texto original' });
    await answer(invoice.id, 'rejected');

    const detail = (await a.agent.get(`/app/invoices/${invoice.id}`).expect(200)).text;
    expect(detail).toContain(`href="/app/invoices/${invoice.id}/correct"`);
    expect(detail).toContain(`action="/app/invoices/${invoice.id}/cancel"`);

    const form = (await a.agent.get(`/app/invoices/${invoice.id}/correct`).expect(200)).text;
    expect(valueOf(form, 'description')).toBe('Texto original');
    expect(valueOf(form, 'breakdown.0.base_amount')).toBe('100.00');
    expect(valueOf(form, 'total_amount')).toBe('121.00');
    expect(valueOf(form, 'recipient.nif')).toBe('B85905495');

    const fields = formFields(form);
    const posted = await a.agent
      .post(`/app/invoices/${invoice.id}/correct`)
      .type('form')
      .send({ ...fields, _csrf: csrfTokenIn(form), invoice_type: 'F1', description: 'Texto corregido', rectification_type: '' });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe(`/app/invoices/${invoice.id}?notice=correction_queued`);

    const after = (await a.agent.get(posted.headers.location).expect(200)).text;
    expect(after).toContain('Correction recorded and queued');
    expect(after).toContain('Texto corregido');
    const history = /data-testid="record-history">([\s\S]*?)<\/table>/.exec(after)?.[1] ?? '';
    expect(history).toContain('>Registration<');
    expect(history).toContain('>Correction<');
    expect(history).toContain('Subsanacion=S, RechazoPrevio=X');
    const xmlLinks = [...history.matchAll(/href="([^"]+\/xml)"/g)].map((m) => m[1]);
    expect(xmlLinks).toHaveLength(2);
    const xml = await a.agent.get(xmlLinks[1]).expect(200);
    expect(xml.headers['content-type']).toMatch(/^application\/xml/);
    expect(xml.text).toContain('<sum1:DescripcionOperacion>Texto corregido</sum1:DescripcionOperacion>');
  });

  it('keeps what was typed and explains the problem when the corrected invoice is not valid', async () => {
    const a = await ready();
    const invoice = await register(a);
    await answer(invoice.id, 'accepted');
    const form = (await a.agent.get(`/app/invoices/${invoice.id}/correct`).expect(200)).text;
    const fields = formFields(form);
    const res = await a.agent
      .post(`/app/invoices/${invoice.id}/correct`)
      .type('form')
      .send({ ...fields, _csrf: csrfTokenIn(form), invoice_type: 'F1', description: 'Nueva', 'breakdown.0.base_amount': 'mucho' });
    expect(res.status).toBe(422);
    expect(valueOf(res.text, 'breakdown.0.base_amount')).toBe('mucho');
    expect(res.text).toContain('error-summary');
    expect((await request(t.app).get(`/api/v1/invoices/${invoice.id}`).set(a.auth).expect(200)).body.data.records).toHaveLength(1);
  });

  it('says why while a record still waits for the authority (409), and changes nothing', async () => {
    const a = await ready();
    const invoice = await register(a);
    const form = (await a.agent.get(`/app/invoices/${invoice.id}/correct`).expect(200)).text;
    const fields = formFields(form);
    const res = await a.agent
      .post(`/app/invoices/${invoice.id}/correct`)
      .type('form')
      .send({ ...fields, _csrf: csrfTokenIn(form), invoice_type: 'F1', description: 'X' });
    expect(res.status).toBe(409);
    expect(res.text).toContain('It cannot be corrected yet: a record of this invoice is waiting for the authority&#39;s answer.');
  });
});

describe('original and corrective invoices', () => {
  it('link to each other both ways', async () => {
    const a = await ready();
    const original = await register(a, { invoice_number: 'F-ORIG-1', invoice_date: '2026-01-15' });
    const corrective = await register(a, {
      invoice_number: 'R-ORIG-1',
      invoice_type: 'R1',
      rectification_type: 'I',
      corrected_invoices: [{ invoice_number: 'F-ORIG-1', invoice_date: '2026-01-15' }],
      breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: -100, tax_rate: 21, tax_amount: -21 }],
      total_amount: -121,
      total_tax_amount: -21,
    });
    const originalPage = (await a.agent.get(`/app/invoices/${original.id}`).expect(200)).text;
    expect(originalPage).toContain(`<a href="/app/invoices/${corrective.id}" data-testid="corrected-by-link">R-ORIG-1</a>`);
    const correctivePage = (await a.agent.get(`/app/invoices/${corrective.id}`).expect(200)).text;
    expect(correctivePage).toContain(`<a href="/app/invoices/${original.id}" data-testid="corrects-link"><code>F-ORIG-1</code></a>`);
  });
});

describe('cancelling an invoice from the dashboard', () => {
  it('needs the confirmation, then appends the anulación with its reason and shows the invoice as cancelled', async () => {
    const a = await ready();
    const invoice = await register(a);
    await answer(invoice.id, 'accepted');
    const page = (await a.agent.get(`/app/invoices/${invoice.id}`).expect(200)).text;

    const unconfirmed = await a.agent
      .post(`/app/invoices/${invoice.id}/cancel`)
      .type('form')
      .send({ _csrf: csrfTokenIn(page), reason: 'Duplicada' });
    expect(unconfirmed.status).toBe(303);
    expect((await a.agent.get(unconfirmed.headers.location).expect(200)).text).toContain('tick the confirmation box');
    expect((await request(t.app).get(`/api/v1/invoices/${invoice.id}`).set(a.auth).expect(200)).body.data.cancelled).toBe(false);

    const confirmed = await a.agent
      .post(`/app/invoices/${invoice.id}/cancel`)
      .type('form')
      .send({ _csrf: csrfTokenIn(page), reason: 'Duplicada', confirm: 'yes' });
    expect(confirmed.headers.location).toBe(`/app/invoices/${invoice.id}?notice=cancellation_queued`);
    const after = (await a.agent.get(confirmed.headers.location).expect(200)).text;
    expect(after).toContain('data-testid="invoice-cancelled"');
    expect(after).not.toContain(`action="/app/invoices/${invoice.id}/cancel"`);
    expect(after).toContain(`href="/app/invoices/${invoice.id}/correct" data-testid="reactivate-invoice">Correct and reactivate</a>`);
    const history = /data-testid="record-history">([\s\S]*?)<\/table>/.exec(after)?.[1] ?? '';
    expect(history).toContain('>Cancellation<');
    expect(history).toContain('Duplicada');
    expect(history).toContain('>RegistroAnulacion</a>');

    const again = await a.agent
      .post(`/app/invoices/${invoice.id}/cancel`)
      .type('form')
      .send({ _csrf: csrfTokenIn(page), confirm: 'yes' });
    expect((await a.agent.get(again.headers.location).expect(200)).text).toContain('already cancelled');
  });
});

describe('reactivating a cancelled invoice from the dashboard', () => {
  it('offers the correction as a reactivation; the invoice stays cancelled until the authority accepts it', async () => {
    const a = await ready();
    const invoice = await register(a, { description: 'Texto original' });
    await answer(invoice.id, 'accepted');
    const cancelled = (await request(t.app).post(`/api/v1/invoices/${invoice.id}/cancel`).set(a.auth).send({}).expect(201)).body.data;
    await answer(cancelled.id, 'accepted');

    const page = (await a.agent.get(`/app/invoices/${invoice.id}`).expect(200)).text;
    expect(page).toContain('data-testid="reactivate-invoice"');
    const form = (await a.agent.get(`/app/invoices/${invoice.id}/correct`).expect(200)).text;
    expect(form).toContain('data-testid="reactivation-lead"');
    expect(valueOf(form, 'description')).toBe('Texto original');
    const posted = await a.agent
      .post(`/app/invoices/${invoice.id}/correct`)
      .type('form')
      .send({ ...formFields(form), _csrf: csrfTokenIn(form), invoice_type: 'F1', description: 'Reactivada', rectification_type: '' });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe(`/app/invoices/${invoice.id}?notice=reactivation_queued`);

    const waiting = (await a.agent.get(posted.headers.location).expect(200)).text;
    expect(waiting).toContain('The invoice is in force again once the authority accepts it.');
    expect(waiting).toContain('data-testid="invoice-cancelled"');
    const history = /data-testid="record-history">([\s\S]*?)<\/table>/.exec(waiting)?.[1] ?? '';
    expect(history).toContain('>Cancellation<');
    expect(history).toContain('>Correction<');
    expect(history).toMatch(/<code>Subsanacion=S<\/code>/);

    const detail = (await request(t.app).get(`/api/v1/invoices/${invoice.id}`).set(a.auth).expect(200)).body.data;
    await answer(detail.records[2].id, 'accepted');
    const active = (await a.agent.get(`/app/invoices/${invoice.id}`).expect(200)).text;
    expect(active).not.toContain('data-testid="invoice-cancelled"');
    expect(active).toContain(`action="/app/invoices/${invoice.id}/cancel"`);
    expect(active).toContain('Reactivada');
  });
});
