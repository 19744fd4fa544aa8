import request from 'supertest';
import { createSystem, createTaxpayer, invoiceBody, readyAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** An account with two taxpayers and a system that declares it supports one taxpayer. */
async function setup() {
  const { account, taxpayerId: first } = await readyAccount(t.app);
  const second = await createTaxpayer(t.app, account, { name: 'Segundo' });
  const single = await createSystem(t.app, account, { supports_multiple_taxpayers: false, installation_number: 'UNO' });
  return { account, first, second, single };
}

const post = (auth: { Authorization: string }, path: string, body: object) => request(t.app).post(`/api/v1${path}`).set(auth).send(body);
const systemOf = async (auth: { Authorization: string }, id: string) =>
  (await request(t.app).get(`/api/v1/invoices/${id}`).set(auth).expect(200)).body.data.computer_system;
const invoiceCount = async (auth: { Authorization: string }) =>
  (await request(t.app).get('/api/v1/invoices').set(auth).expect(200)).body.data.length;

describe('a computer system that supports one taxpayer', () => {
  it('sends TipoUsoPosibleMultiOT=N with IndicadorMultiplesOT=N, however many taxpayers the account has', async () => {
    const { account, first, single } = await setup();
    const res = await post(account.auth, '/invoices', invoiceBody(first, single)).expect(201);
    expect(await systemOf(account.auth, res.body.data.id)).toMatchObject({ TipoUsoPosibleMultiOT: 'N', IndicadorMultiplesOT: 'N' });
    const xml = (await request(t.app).get(`/api/v1/invoices/${res.body.data.id}/records/${res.body.data.id}/xml`).set(account.auth)).text;
    expect(xml).toContain(
      '<sum1:TipoUsoPosibleMultiOT>N</sum1:TipoUsoPosibleMultiOT><sum1:IndicadorMultiplesOT>N</sum1:IndicadorMultiplesOT>',
    );
  });

  it('keeps the first taxpayer that used it: a second one is refused (409 system_single_taxpayer), nothing stored', async () => {
    const { account, first, second, single } = await setup();
    await post(account.auth, '/invoices', invoiceBody(first, single)).expect(201);

    const refused = await post(account.auth, '/invoices', invoiceBody(second, single)).expect(409);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ code: 'system_single_taxpayer', status: 409, sole_taxpayer_id: first });
    expect((await post(account.auth, '/invoices/validate', invoiceBody(second, single)).expect(409)).body.code).toBe(
      'system_single_taxpayer',
    );
    const batch = await post(account.auth, '/invoices/batch', [invoiceBody(second, single), invoiceBody(first, single)]).expect(207);
    expect(batch.body.results.map((r: { status: number }) => r.status)).toEqual([409, 201]);
    expect(await invoiceCount(account.auth)).toBe(2);
    expect((await request(t.app).get(`/api/v1/systems/${single}`).set(account.auth).expect(200)).body.data.sole_taxpayer_id).toBe(first);

    // The second taxpayer registers with a system of its own.
    const own = await createSystem(t.app, account, { supports_multiple_taxpayers: false, installation_number: 'DOS' });
    await post(account.auth, '/invoices', invoiceBody(second, own)).expect(201);
  });

  it('cannot be named by a correction of another taxpayer’s invoice', async () => {
    const { account, first, second, single } = await setup();
    await post(account.auth, '/invoices', invoiceBody(first, single)).expect(201);
    const several = await createSystem(t.app, account);
    const body = invoiceBody(second, several);
    const theirs = (await post(account.auth, '/invoices', body).expect(201)).body.data;
    await t.db.db.$client.query(`UPDATE invoices SET authority_status = 'accepted' WHERE id = $1`, [theirs.id]);
    const res = await request(t.app)
      .put(`/api/v1/invoices/${theirs.id}`)
      .set(account.auth)
      .send({ ...body, computer_system_id: single })
      .expect(409);
    expect(res.body.code).toBe('system_single_taxpayer');
  });

  it('goes to one taxpayer only when two use it for the first time at once', async () => {
    for (let round = 0; round < 4; round++) {
      const { account, first, second, single } = await setup();
      const answers = await Promise.all([
        post(account.auth, '/invoices', invoiceBody(first, single)),
        post(account.auth, '/invoices', invoiceBody(second, single)),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      expect(await invoiceCount(account.auth)).toBe(1);
    }
  });

  it('is never declared single-taxpayer while a second taxpayer’s registration with it goes through', async () => {
    for (let round = 0; round < 4; round++) {
      const { account, first, second } = await setup();
      const system = await createSystem(t.app, account);
      await post(account.auth, '/invoices', invoiceBody(first, system)).expect(201);
      const [declared, registered] = await Promise.all([
        request(t.app).put(`/api/v1/systems/${system}`).set(account.auth).send({ supports_multiple_taxpayers: false }),
        post(account.auth, '/invoices', invoiceBody(second, system)),
      ]);
      // One of the two wins; never both.
      expect([declared.status, registered.status].sort()).toEqual(declared.status === 200 ? [200, 409] : [201, 409]);
    }
  });

  it('may be declared single-taxpayer only while one taxpayer’s records name it; declared several again, it serves both', async () => {
    const { account, first, second } = await setup();
    const system = await createSystem(t.app, account);
    await post(account.auth, '/invoices', invoiceBody(first, system)).expect(201);
    const put = (body: Record<string, unknown>) => request(t.app).put(`/api/v1/systems/${system}`).set(account.auth).send(body);

    await put({ supports_multiple_taxpayers: false }).expect(200);
    expect((await post(account.auth, '/invoices', invoiceBody(second, system)).expect(409)).body.code).toBe('system_single_taxpayer');

    await put({ supports_multiple_taxpayers: true }).expect(200);
    const shared = (await post(account.auth, '/invoices', invoiceBody(second, system)).expect(201)).body.data;
    expect(await systemOf(account.auth, shared.id)).toMatchObject({ TipoUsoPosibleMultiOT: 'S', IndicadorMultiplesOT: 'S' });
    const refused = await put({ supports_multiple_taxpayers: false }).expect(409);
    expect(refused.body.code).toBe('system_single_taxpayer');
  });
});
