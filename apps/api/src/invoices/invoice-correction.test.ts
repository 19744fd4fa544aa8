import { sql } from 'drizzle-orm';
import request from 'supertest';
import { waitUntil } from '@vf/core/testing';
import { chainJobId } from '@vf/queue';
import { createTaxpayer, invoiceBody, readyAccount, registerAccount, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Stands in for the worker: the authority's answer to one record. */
async function answer(recordId: string, status: string, code: number | null = null): Promise<void> {
  await t.db.db.execute(sql`UPDATE invoices SET authority_status = ${status}, authority_code = ${code} WHERE id = ${recordId}`);
}

async function setup() {
  const ready = await readyAccount(t.app);
  const body = invoiceBody(ready.taxpayerId, ready.systemId);
  const registered = (await request(t.app).post('/api/v1/invoices').set(ready.account.auth).send(body).expect(201)).body.data;
  return { ...ready, body, id: registered.id as string, registered };
}

const get = async (account: TestAccount, id: string) =>
  (await request(t.app).get(`/api/v1/invoices/${id}`).set(account.auth).expect(200)).body.data;
const put = (account: TestAccount, id: string, body: Record<string, unknown>) =>
  request(t.app).put(`/api/v1/invoices/${id}`).set(account.auth).send(body);

describe('PUT /api/v1/invoices/{id} (subsanación)', () => {
  it('corrects a rejected invoice with Subsanacion=S RechazoPrevio=X, as a new link of the chain', async () => {
    const { account, body, id, registered } = await setup();
    await answer(id, 'rejected', 1105);
    const corrected = { ...body, description: 'Descripción corregida' };
    const res = await put(account, id, corrected).expect(201);
    expect(res.headers.location).toBe(`/api/v1/invoices/${id}`);
    expect(res.body.data).toMatchObject({
      invoice_id: id,
      record_type: 'correction',
      flags: { subsanacion: true, rechazo_previo: 'X', sin_registro_previo: false },
      previous_hash: registered.hash,
      chain_position: 2,
      authority_status: 'queued',
    });
    expect(res.body.data.id).not.toBe(id);

    const detail = await get(account, id);
    expect(detail).toMatchObject({
      id,
      description: 'Descripción corregida',
      record_type: 'correction',
      authority_status: 'queued',
      cancelled: false,
      chain_position: 2,
    });
    expect(detail.records.map((r: { record_type: string; authority_status: string }) => [r.record_type, r.authority_status])).toEqual([
      ['registration', 'rejected'],
      ['correction', 'queued'],
    ]);
    // One row per invoice in the list, showing its current state.
    const listed = (await request(t.app).get('/api/v1/invoices').set(account.auth).expect(200)).body.data;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id, record_type: 'correction', authority_status: 'queued', chain_position: 2 });
    // The correction wakes its chain's sender.
    const chain = await t.db.db.execute(sql`SELECT chain_id FROM invoices WHERE id = ${res.body.data.id}`);
    const chainId = (chain.rows[0] as { chain_id: string }).chain_id;
    await waitUntil(() => t.queues.submission.getJob(chainJobId(chainId)), "the chain's job");
  });

  it('after an accepted invoice: Subsanacion=S alone; after that subsanación is rejected: RechazoPrevio=S', async () => {
    const { account, body, id } = await setup();
    await answer(id, 'accepted_with_warnings', 2005);
    const first = (await put(account, id, { ...body, description: 'Primera corrección' }).expect(201)).body.data;
    expect(first.flags).toEqual({ subsanacion: true, rechazo_previo: null, sin_registro_previo: false });

    await answer(first.id, 'rejected', 1105);
    const second = (await put(account, id, { ...body, description: 'Segunda corrección' }).expect(201)).body.data;
    expect(second.flags).toEqual({ subsanacion: true, rechazo_previo: 'S', sin_registro_previo: false });
    expect(second.previous_hash).toBe(first.hash);
  });

  it('reactivates a cancelled invoice: Subsanacion=S alone, cancelled until the authority accepts it, then active again', async () => {
    const { account, body, id } = await setup();
    await answer(id, 'accepted');
    const anulacion = (await request(t.app).post(`/api/v1/invoices/${id}/cancel`).set(account.auth).send({}).expect(201)).body.data;
    await answer(anulacion.id, 'accepted');
    expect((await get(account, id)).cancelled).toBe(true);

    const reactivation = (await put(account, id, { ...body, description: 'Reactivada' }).expect(201)).body.data;
    expect(reactivation).toMatchObject({
      record_type: 'correction',
      flags: { subsanacion: true, rechazo_previo: null, sin_registro_previo: false },
      previous_hash: anulacion.hash,
      chain_position: 3,
    });
    const xml = (await request(t.app).get(`/api/v1/invoices/${id}/records/${reactivation.id}/xml`).set(account.auth).expect(200)).text;
    expect(xml).toContain('<sum1:Subsanacion>S</sum1:Subsanacion>');
    expect(xml).not.toContain('RechazoPrevio');
    const listedCancelled = async () =>
      (await request(t.app).get('/api/v1/invoices').set(account.auth).expect(200)).body.data.find((i: { id: string }) => i.id === id)
        .cancelled;
    // While the authority has not accepted it, it still holds the anulación: the invoice reads as cancelled.
    expect(await get(account, id)).toMatchObject({ cancelled: true, authority_status: 'queued', description: 'Reactivada' });
    expect(await listedCancelled()).toBe(true);
    // Refused: still cancelled, and the next try says RechazoPrevio=S (ALTA POR RECHAZO DE SUBSANACIÓN), never X.
    await answer(reactivation.id, 'rejected', 1105);
    expect((await get(account, id)).cancelled).toBe(true);
    expect(await listedCancelled()).toBe(true);
    const again = (await put(account, id, { ...body, description: 'Reactivada otra vez' }).expect(201)).body.data;
    expect(again.flags).toEqual({ subsanacion: true, rechazo_previo: 'S', sin_registro_previo: false });
    await answer(again.id, 'accepted');
    expect(await get(account, id)).toMatchObject({ cancelled: false, authority_status: 'accepted', description: 'Reactivada otra vez' });
    expect(await listedCancelled()).toBe(false);
    // Active again: it may be cancelled again, with a plain anulación.
    const second = (await request(t.app).post(`/api/v1/invoices/${id}/cancel`).set(account.auth).send({}).expect(201)).body.data;
    expect(second.flags).toEqual({ subsanacion: false, rechazo_previo: null, sin_registro_previo: false });
  });

  it('waits while an anulación of the invoice has no answer yet', async () => {
    const { account, body, id } = await setup();
    await answer(id, 'accepted');
    await request(t.app).post(`/api/v1/invoices/${id}/cancel`).set(account.auth).send({}).expect(201);
    const res = await put(account, id, { ...body, description: 'Demasiado pronto' }).expect(409);
    expect(res.body.code).toBe('invoice_awaiting_authority');
    expect(res.body.waiting_records).toEqual([expect.objectContaining({ authority_status: 'queued' })]);
  });

  it('is a 409 while a record of the invoice has no answer yet, and nothing is appended', async () => {
    const { account, body, id } = await setup();
    for (const status of ['queued', 'sent', 'error']) {
      await answer(id, status);
      const res = await put(account, id, { ...body, description: 'Demasiado pronto' }).expect(409);
      expect(res.body.code).toBe('invoice_awaiting_authority');
      expect(res.body.detail).toContain(status);
    }
    expect((await get(account, id)).records).toHaveLength(1);
  });

  it('validates like a registration (422, nothing written) and keeps taxpayer, number and date', async () => {
    const { account, taxpayerId, systemId, body, id } = await setup();
    await answer(id, 'rejected', 1105);
    const invalid = await put(account, id, { ...body, total_amount: 'abc' }).expect(422);
    expect(invalid.body.code).toBe('validation_failed');

    const renumbered = await put(account, id, { ...body, invoice_number: 'OTRO-1' }).expect(422);
    expect(renumbered.body.errors).toEqual([expect.objectContaining({ field: 'invoice_number', code: 'cannot_change' })]);
    const otherTaxpayer = await createTaxpayer(t.app, account, { name: 'Otro' });
    const moved = await put(account, id, invoiceBody(otherTaxpayer, systemId, { invoice_number: body.invoice_number })).expect(422);
    expect(moved.body.errors).toEqual([expect.objectContaining({ field: 'taxpayer_id', code: 'cannot_change' })]);
    expect((await get(account, id)).records).toHaveLength(1);
    const chain = (await request(t.app).get(`/api/v1/taxpayers/${taxpayerId}`).set(account.auth).expect(200)).body.data.chain;
    expect(chain.total_records).toBe(1);
  });

  it("is a 404 for another account's invoice and for unknown ids", async () => {
    const { body, id } = await setup();
    const stranger = await registerAccount(t.app);
    await put(stranger, id, body).expect(404);
    await put(stranger, 'not-an-id', body).expect(404);
  });
});

describe('GET /api/v1/invoices/{id}/records/{record_id}/xml', () => {
  it('returns the RegistroAlta as it will be sent, then exactly as it was sent', async () => {
    const { account, taxpayerId, id, registered } = await setup();
    const pending = await request(t.app).get(`/api/v1/invoices/${id}/records/${id}/xml`).set(account.auth).expect(200);
    expect(pending.headers['content-type']).toMatch(/^application\/xml/);
    expect(pending.text).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<sum1:RegistroAlta xmlns:sum1="[^"]+SuministroInformacion.xsd">/,
    );
    expect(pending.text).toContain(`<sum1:RefExterna>${id}</sum1:RefExterna>`);
    expect(pending.text).toContain(`<sum1:Huella>${registered.hash}</sum1:Huella>`);
    expect(pending.text).toContain('<sum1:PrimerRegistro>S</sum1:PrimerRegistro>');

    // Once a message carried it, the bytes of that message are what is shown.
    const sent = `<soapenv:Envelope xmlns:soapenv="s" xmlns:sum1="urn:as-sent"><soapenv:Body><sum1:RegistroAlta><sum1:RefExterna>${id}</sum1:RefExterna><sum1:Marca>sent</sum1:Marca></sum1:RegistroAlta></soapenv:Body></soapenv:Envelope>`;
    const { rows } = await t.db.db.execute(sql`
      INSERT INTO submissions (taxpayer_id, chain_id, outcome, worker_id, endpoint, certificate_mode, record_count, request_xml)
      VALUES (${taxpayerId}, (SELECT chain_id FROM invoices WHERE id = ${id}), 'answered', 'w1', 'https://sim', 'platform', 1, ${sent}) RETURNING id`);
    await t.db.db.execute(
      sql`INSERT INTO submission_invoices (submission_id, invoice_id, position) VALUES (${(rows[0] as { id: string }).id}, ${id}, 0)`,
    );
    const asSent = await request(t.app).get(`/api/v1/invoices/${id}/records/${id}/xml`).set(account.auth).expect(200);
    expect(asSent.text).toBe(
      `<?xml version="1.0" encoding="UTF-8"?>\n<sum1:RegistroAlta xmlns:sum1="urn:as-sent"><sum1:RefExterna>${id}</sum1:RefExterna><sum1:Marca>sent</sum1:Marca></sum1:RegistroAlta>`,
    );
  });

  it('is a 404 for a record of another invoice, and for another account', async () => {
    const a = await setup();
    const b = await setup();
    expect((await request(t.app).get(`/api/v1/invoices/${a.id}/records/${b.id}/xml`).set(a.account.auth).expect(404)).body.code).toBe(
      'record_not_found',
    );
    expect((await request(t.app).get(`/api/v1/invoices/${a.id}/records/${a.id}/xml`).set(b.account.auth).expect(404)).body.code).toBe(
      'invoice_not_found',
    );
  });
});

describe('warnings given at registration', () => {
  it('are stored with the record and returned with the invoice', async () => {
    const { account, taxpayerId, systemId } = await readyAccount(t.app);
    const body = invoiceBody(taxpayerId, systemId, {
      breakdown: [{ tax_type: '01', regime_type: '01', operation_type: 'S1', base_amount: 100, tax_rate: 21, tax_amount: 21.5 }],
      total_amount: 121.5,
      total_tax_amount: 21.5,
    });
    const registered = (await request(t.app).post('/api/v1/invoices').set(account.auth).send(body).expect(201)).body.data;
    expect(registered.warnings).toEqual([expect.objectContaining({ code: 'tax_amount_rounding' })]);
    const detail = await get(account, registered.id);
    expect(detail.warnings).toEqual(registered.warnings);
    expect(detail.records[0].warnings).toEqual(registered.warnings);
  });
});
