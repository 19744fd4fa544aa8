import { and, eq } from 'drizzle-orm';
import request from 'supertest';
import { invoices, signedRecords } from '@vf/db';
import { createSystem, createTaxpayer, invoiceBody, createTestApp, type TestApp } from '@vf/api/testing';
import { signUp, submitForm } from '../testing/dashboard-agent';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function chainOfThree(nif?: string) {
  const a = await signUp(t.app);
  const taxpayerId = await createTaxpayer(t.app, { ...a }, nif ? { nif } : {});
  const systemId = await createSystem(t.app, { ...a });
  const numbers = ['C-1', 'C-2', 'C-3'];
  const created = [];
  for (const n of numbers)
    created.push(
      (
        await request(t.app)
          .post('/api/v1/invoices')
          .set(a.auth)
          .send(invoiceBody(taxpayerId, systemId, { invoice_number: n }))
          .expect(201)
      ).body.data,
    );
  return { a, taxpayerId, created };
}

describe('chain view', () => {
  it('shows the same chain state as GET /api/v1/chain/{nif}', async () => {
    const { a, taxpayerId } = await chainOfThree('89890001K');
    const api = (await request(t.app).get('/api/v1/chain/89890001K').set(a.auth).expect(200)).body.data;
    const page = (await a.agent.get(`/app/taxpayers/${taxpayerId}/chain`).expect(200)).text;
    expect(page).toContain(`<dd data-testid="chain-total">${api.total_records}</dd>`);
    expect(page).toContain(`<code>${api.last_hash}</code>`);
  });

  it('verifies every link and hash of an intact chain', async () => {
    const { a, taxpayerId } = await chainOfThree();
    const path = `/app/taxpayers/${taxpayerId}/chain`;
    const res = await submitForm(a.agent, path, `${path}/verify`, {});
    expect(res.status).toBe(200);
    expect(res.text).toContain('All 3 records verified.');
  });

  it('reports the first broken record when a stored amount was altered', async () => {
    const { a, taxpayerId, created } = await chainOfThree();
    await t.db.db
      .update(invoices)
      .set({ totalAmount: '1210.00' })
      .where(and(eq(invoices.taxpayerId, taxpayerId), eq(invoices.chainSeq, 2)));
    const path = `/app/taxpayers/${taxpayerId}/chain`;
    const res = await submitForm(a.agent, path, `${path}/verify`, {});
    expect(res.text).toContain(`The chain is broken at record 2 (invoice <a href="/app/invoices/${created[1].id}">C-2</a>):`);
    expect(res.text).toContain('does not match the hash recomputed from its values');
    expect(res.text).toContain('1 record before it verified correctly.');
  });

  it('verifies the signatures of a range: counts them and lists each invalid one, the links still verified', async () => {
    const { a, taxpayerId, created } = await chainOfThree();
    await t.db.db
      .insert(signedRecords)
      .values({ invoiceId: created[1].id, xml: '<sum1:RegistroAlta xmlns:sum1="urn:x"></sum1:RegistroAlta>' });
    const path = `/app/taxpayers/${taxpayerId}/chain`;
    const res = await submitForm(a.agent, path, `${path}/verify`, { from: '2', to: '3' });
    expect(res.text).toContain('Signatures: 0 valid, 1 invalid, 1 records sent unsigned.');
    expect(res.text).toContain(
      `Invalid signature at record 2 (invoice <a href="/app/invoices/${created[1].id}">C-2</a>):</strong> the stored signed record carries no signature`,
    );
    expect(res.text).not.toContain('The chain is broken');
  });

  it('needs a POST with the CSRF token to run', async () => {
    const { a, taxpayerId } = await chainOfThree();
    await a.agent.post(`/app/taxpayers/${taxpayerId}/chain/verify`).type('form').send({}).expect(403);
  });
});
