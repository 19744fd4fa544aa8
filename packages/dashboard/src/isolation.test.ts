import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createSystem, createTaxpayer, invoiceBody, createTestApp, type TestApp } from '@vf/api/testing';
import { csrfTokenIn, signUp, type DashboardAccount } from './testing/dashboard-agent';

let t: TestApp;
let owner: DashboardAccount;
let intruder: DashboardAccount;
let taxpayerId: string;
let systemId: string;
let invoiceId: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUp(t.app, 'Owner');
  intruder = await signUp(t.app, 'Intruder');
  taxpayerId = await createTaxpayer(t.app, { ...owner }, { name: 'Secreto SL' });
  systemId = await createSystem(t.app, { ...owner });
  invoiceId = (
    await request(t.app)
      .post('/api/v1/invoices')
      .set(owner.auth)
      .send(invoiceBody(taxpayerId, systemId, { invoice_number: 'PRIV-1' }))
      .expect(201)
  ).body.data.id;
});
afterAll(() => t.close());

describe("another account's data", () => {
  it.each([
    ['taxpayer', () => `/app/taxpayers/${taxpayerId}`],
    ['chain', () => `/app/taxpayers/${taxpayerId}/chain`],
    ['checks, exports and remissions', () => `/app/taxpayers/${taxpayerId}/kept`],
    ['system', () => `/app/systems/${systemId}`],
    ['invoice', () => `/app/invoices/${invoiceId}`],
    ['QR image', () => `/app/invoices/${invoiceId}/qr.svg`],
    ['unknown id', () => `/app/invoices/${randomUUID()}`],
    ['malformed id', () => '/app/taxpayers/not-a-uuid'],
  ])('is a 404 page: %s', async (_what, path) => {
    const res = await intruder.agent.get(path()).expect(404);
    expect(res.text).not.toContain('Secreto SL');
    expect(res.text).not.toContain('PRIV-1');
  });

  it('does not appear in lists or status polls', async () => {
    expect((await intruder.agent.get('/app/invoices')).text).not.toContain('PRIV-1');
    expect((await intruder.agent.get('/app/taxpayers')).text).not.toContain('Secreto SL');
    expect((await intruder.agent.get(`/app/invoices?taxpayer_id=${taxpayerId}`)).text).not.toContain('PRIV-1');
    const poll = await intruder.agent.get(`/app/invoices/statuses?ids=${invoiceId}`).set('Accept', 'application/json').expect(200);
    expect(poll.body).toEqual({ invoices: [] });
  });

  it('cannot be changed or deleted with a valid form of ones own', async () => {
    const csrf = csrfTokenIn((await intruder.agent.get('/app/api-key')).text);
    await intruder.agent.post(`/app/taxpayers/${taxpayerId}/delete`).type('form').send({ _csrf: csrf }).expect(404);
    await intruder.agent
      .post(`/app/taxpayers/${taxpayerId}`)
      .type('form')
      .send({ _csrf: csrf, nif: '89890001K', name: 'Hijacked' })
      .expect(404);
    await intruder.agent.post(`/app/systems/${systemId}/delete`).type('form').send({ _csrf: csrf }).expect(404);
    await intruder.agent.post(`/app/taxpayers/${taxpayerId}/chain/verify`).type('form').send({ _csrf: csrf }).expect(404);
    await intruder.agent.post(`/app/taxpayers/${taxpayerId}/kept/check`).type('form').send({ _csrf: csrf, subject: 'records' }).expect(404);
    const mine = (await request(t.app).get(`/api/v1/taxpayers/${taxpayerId}`).set(owner.auth).expect(200)).body.data;
    expect(mine.name).toBe('Secreto SL');
    await request(t.app).get(`/api/v1/systems/${systemId}`).set(owner.auth).expect(200);
  });

  it('is visible to its owner', async () => {
    expect((await owner.agent.get(`/app/invoices/${invoiceId}`).expect(200)).text).toContain('PRIV-1');
  });
});
