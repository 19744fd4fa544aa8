import request from 'supertest';
import { createTestApp, type TestApp } from '@vf/api/testing';
import { csrfTokenIn, signUp, type DashboardAccount } from '../testing/dashboard-agent';

// The list check's pages and the form's recipient check, in-process (no census configured: the browser test in
// e2e/src/dashboard checks real answers against the simulator).

let t: TestApp;
let a: DashboardAccount;
beforeAll(async () => {
  t = await createTestApp();
  a = await signUp(t.app);
});
afterAll(() => t.close());

async function upload(csv: string | undefined) {
  const page = await a.agent.get('/app/tax-ids').expect(200);
  const post = a.agent.post('/app/tax-ids').field('_csrf', csrfTokenIn(page.text));
  return csv === undefined
    ? post.field('note', '')
    : post.attach('file', Buffer.from(csv), { filename: 'clientes.csv', contentType: 'text/csv' });
}

describe('the list check', () => {
  it('takes a CSV, shows the list’s progress, and gives its rows as CSV', async () => {
    const res = await upload('tax_id;name\n89890001K;Cliente Uno SL\nDE123456789;\n');
    expect(res.status).toBe(303);
    const page = await a.agent.get(res.headers.location).expect(200);
    expect(page.text).toContain('0 of 2 checked');
    const id = res.headers.location.split('/').pop()!;
    const progress = await a.agent.get(`/app/tax-ids/lists/${id}/progress`).expect(200);
    expect(progress.body).toEqual({ status: 'pending', answered: 0, total: 2, text: '0 of 2 checked' });
    const api = await request(t.app).get(`/api/v1/tax-ids/lists/${id}`).set(a.auth).expect(200);
    expect(api.body.data).toMatchObject({ total: 2, status: 'pending' });
    const csv = await a.agent.get(`/app/tax-ids/lists/${id}/results.csv`).expect(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.text.split('\r\n').slice(1, 3)).toEqual([expect.stringMatching(/^1;89890001K;/), expect.stringMatching(/^2;DE123456789;/)]);
  });

  it('refuses a list without a file or with a bad row, saying which line', async () => {
    const none = await upload(undefined);
    expect(none.status).toBe(422);
    expect(none.text).toContain('Choose the CSV file with the list.');
    const bad = await upload('tax_id,name\n89890001K,Cliente Uno SL\n12345678A,Cliente Dos SL\n');
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('Line 2: tax_ids[1] does not match');
  });

  it('never shows one account’s list to another', async () => {
    const res = await upload('tax_id,name\n89890001K,Cliente Uno SL\n');
    const other = await signUp(t.app, 'Otra Gestoría');
    await other.agent.get(res.headers.location).expect(404);
    await other.agent.get(`${res.headers.location}/results.csv`).expect(404);
  });
});

describe('the invoice form’s recipient check', () => {
  const check = async (fields: Record<string, string>, language = 'en') => {
    const page = await a.agent.get('/app/tax-ids').expect(200);
    return a.agent
      .post('/app/tax-ids/check')
      .set('Accept-Language', language)
      .type('form')
      .send({ _csrf: csrfTokenIn(page.text), ...fields })
      .expect(200);
  };

  it('says a NIF is not valid before asking the census, and that an unreachable census is to be asked later', async () => {
    expect((await check({ nif: '12345678A', name: 'Cliente SL' })).body).toEqual({
      result: 'invalid',
      text: expect.stringContaining('not valid'),
    });
    // No census in this deployment: the form is never stopped, it is told to try later.
    expect((await check({ nif: '89890001K', name: 'Cliente SL' })).body).toEqual({
      result: 'unknown',
      text: 'The census could not check it now: try again later.',
    });
  });

  it('needs the page’s CSRF token', async () => {
    await a.agent.post('/app/tax-ids/check').type('form').send({ nif: '89890001K', name: 'Cliente SL' }).expect(403);
  });
});

describe('the account’s recipient check default', () => {
  it('is chosen on the tax ID page and is what the API’s account says', async () => {
    const b = await signUp(t.app, 'Gestoría Ajustes');
    const page = await b.agent.get('/app/tax-ids').expect(200);
    const save = (value: string) =>
      b.agent
        .post('/app/tax-ids/recipient-check')
        .type('form')
        .send({ _csrf: csrfTokenIn(page.text), recipient_check: value });
    expect((await save('refuse')).headers.location).toBe('/app/tax-ids?notice=recipient_check_saved');
    expect((await request(t.app).get('/api/v1/account').set(b.auth).expect(200)).body.data.recipient_check).toBe('refuse');
    const shown = await b.agent.get('/app/tax-ids?notice=recipient_check_saved').expect(200);
    expect(shown.text).toContain('Recipient check saved.');
    expect(shown.text).toMatch(/<option value="refuse" selected/);
    await save('');
    expect((await request(t.app).get('/api/v1/account').set(b.auth).expect(200)).body.data.recipient_check).toBeNull();
    expect((await save('always')).status).toBe(422);
  });
});
