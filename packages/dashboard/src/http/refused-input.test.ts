import request from 'supertest';
import { createTestApp, type TestApp } from '@vf/api/testing';
import { browser, csrfTokenIn, signUp, type DashboardAccount } from '../testing/dashboard-agent';

// What reached PostgreSQL or an unmapped parser error before, and answered 500: each is a page saying what is wrong.
let t: TestApp;
let owner: DashboardAccount;
beforeAll(async () => {
  t = await createTestApp();
  owner = await signUp(t.app);
});
afterAll(() => t.close());

const fields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`field${i}`, 'x']));

test('a control character in a query string is refused with 422 on every page, signed in or not', async () => {
  for (const [agent, path] of [
    [owner.agent, '/app/invoices?q=%00'],
    [owner.agent, '/app/invoices/export.csv?q=a%00b'],
    [owner.agent, '/app?notice=%1B%5B31m'],
    [browser(t.app), '/login?next=%00'],
  ] as const) {
    const res = await agent.get(path);
    expect({ path, status: res.status }).toEqual({ path, status: 422 });
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  }
});

test('days that do not exist in the list filters are named on the list page, and the export link sends back to it', async () => {
  const res = await owner.agent.get('/app/invoices?date_from=2025-02-30&date_to=2025-13-01').expect(422);
  expect(res.text).toContain('Dated from must be a date YYYY-MM-DD.');
  expect(res.text).toContain('Dated until must be a date YYYY-MM-DD.');
  await owner.agent.get('/app/invoices/export.csv?date_to=2025-02-30').expect(303);
});

test('a form with more fields than any page sends is refused with 413, on /login signed out and on a signed-in form', async () => {
  const visitor = browser(t.app);
  const token = csrfTokenIn((await visitor.get('/login').expect(200)).text);
  const signIn = await visitor
    .post('/login')
    .type('form')
    .send({ _csrf: token, ...fields(150) });
  expect(signIn.status).toBe(413);
  expect(signIn.text).toContain('The form has more fields than any page of the dashboard sends');

  const ownToken = csrfTokenIn((await owner.agent.get('/app/systems/new').expect(200)).text);
  const urlEncoded = await owner.agent
    .post('/app/systems')
    .type('form')
    .send({ _csrf: ownToken, ...fields(150) });
  expect(urlEncoded.status).toBe(413);
  let multipart = owner.agent.post('/app/taxpayers').field('_csrf', ownToken);
  for (const [name, value] of Object.entries(fields(60))) multipart = multipart.field(name, value);
  expect((await multipart).status).toBe(413);
  expect((await request(t.app).get('/api/v1/systems').set(owner.auth)).body.data).toEqual([]);
});
