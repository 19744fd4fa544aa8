import { sql } from 'drizzle-orm';
import request from 'supertest';
import { computeCancellationHash, toAeatDate } from '@vf/core';
import { invoiceBody, readyAccount, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Stands in for the worker: the authority's answer to one record. */
async function answer(recordId: string, status: string): Promise<void> {
  await t.db.db.execute(sql`UPDATE invoices SET authority_status = ${status} WHERE id = ${recordId}`);
}

async function setup() {
  const ready = await readyAccount(t.app);
  const body = invoiceBody(ready.taxpayerId, ready.systemId);
  const registered = (await request(t.app).post('/api/v1/invoices').set(ready.account.auth).send(body).expect(201)).body.data;
  return { ...ready, body, id: registered.id as string, registered };
}

const get = async (account: TestAccount, id: string) =>
  (await request(t.app).get(`/api/v1/invoices/${id}`).set(account.auth).expect(200)).body.data;
const cancel = (account: TestAccount, id: string, body?: Record<string, unknown>) =>
  request(t.app).post(`/api/v1/invoices/${id}/cancel`).set(account.auth).send(body);

describe('POST /api/v1/invoices/{id}/cancel (anulación)', () => {
  it('appends a RegistroAnulacion with its own huella; the invoice reads as cancelled and cannot be cancelled again', async () => {
    const { account, body, id, registered } = await setup();
    await answer(id, 'accepted');
    const res = await cancel(account, id, { reason: 'Emitida por error' }).expect(201);
    expect(res.headers.location).toBe(`/api/v1/invoices/${id}`);
    const record = res.body.data;
    expect(record).toMatchObject({
      invoice_id: id,
      record_type: 'cancellation',
      flags: { subsanacion: false, rechazo_previo: null, sin_registro_previo: false },
      previous_hash: registered.hash,
      chain_position: 2,
      authority_status: 'queued',
      cancellation_reason: 'Emitida por error',
    });
    // AEAT's huella specification: IDEmisorFacturaAnulada, NumSerieFacturaAnulada, FechaExpedicionFacturaAnulada,
    // Huella, FechaHoraHusoGenRegistro.
    const detail = await get(account, id);
    expect(record.hash).toBe(
      computeCancellationHash({
        issuerNif: detail.issuer.nif,
        invoiceNumber: String(body.invoice_number),
        invoiceDate: toAeatDate(String(body.invoice_date)),
        previousHash: registered.hash,
        generatedAt: record.generated_at,
      }),
    );
    expect(detail).toMatchObject({
      cancelled: true,
      record_type: 'cancellation',
      authority_status: 'queued',
      description: body.description,
      total_amount: '121.00',
    });

    const xml = (await request(t.app).get(`/api/v1/invoices/${id}/records/${record.id}/xml`).set(account.auth).expect(200)).text;
    expect(xml).toContain('<sum1:RegistroAnulacion');
    expect(xml).toContain(`<sum1:NumSerieFacturaAnulada>${body.invoice_number}</sum1:NumSerieFacturaAnulada>`);
    expect(xml).not.toContain('SinRegistroPrevio');

    expect((await cancel(account, id).expect(409)).body.code).toBe('already_cancelled');
    // A correction waits for the authority's answer to the anulación (its flags depend on it).
    expect((await request(t.app).put(`/api/v1/invoices/${id}`).set(account.auth).send(body).expect(409)).body.code).toBe(
      'invoice_awaiting_authority',
    );
    expect((await get(account, id)).records).toHaveLength(2);
  });

  it('SinRegistroPrevio=S when the authority holds no alta; RechazoPrevio=S after a rejected anulación', async () => {
    const { account, id } = await setup();
    await answer(id, 'rejected');
    const first = (await cancel(account, id).expect(201)).body.data;
    expect(first.flags).toEqual({ subsanacion: false, rechazo_previo: null, sin_registro_previo: true });

    await answer(first.id, 'rejected');
    expect((await get(account, id)).cancelled).toBe(false);
    const second = (await cancel(account, id, {}).expect(201)).body.data;
    expect(second.flags).toEqual({ subsanacion: false, rechazo_previo: 'S', sin_registro_previo: true });
  });

  it('the next record of the chain links to the anulación with the cancelled invoice identifiers', async () => {
    const { account, taxpayerId, systemId, body, id } = await setup();
    await answer(id, 'accepted');
    const anulacion = (await cancel(account, id).expect(201)).body.data;
    const next = (await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201)).body
      .data;
    expect(next.previous_hash).toBe(anulacion.hash);
    const xml = (await request(t.app).get(`/api/v1/invoices/${next.id}/records/${next.id}/xml`).set(account.auth).expect(200)).text;
    expect(xml).toMatch(
      new RegExp(
        `<sum1:RegistroAnterior>.*<sum1:NumSerieFactura>${body.invoice_number}</sum1:NumSerieFactura>.*<sum1:Huella>${anulacion.hash}</sum1:Huella>`,
        's',
      ),
    );
  });

  it('waits for the answer to every record of the invoice (409) and refuses a reason that is too long (422)', async () => {
    const { account, id } = await setup();
    expect((await cancel(account, id).expect(409)).body.code).toBe('invoice_awaiting_authority');
    await answer(id, 'accepted');
    expect((await cancel(account, id, { reason: 'x'.repeat(501) }).expect(422)).body.errors[0].field).toBe('reason');
    expect((await get(account, id)).records).toHaveLength(1);
  });

  it('is refused once the taxpayer switched environment: the invoice lives in the other registry', async () => {
    const { account, taxpayerId, id } = await setup();
    await answer(id, 'accepted');
    await request(t.app).put(`/api/v1/taxpayers/${taxpayerId}`).set(account.auth).send({ is_production: true }).expect(200);
    expect((await cancel(account, id).expect(409)).body.code).toBe('invoice_in_other_environment');
  });
});
