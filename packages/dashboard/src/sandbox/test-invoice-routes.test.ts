import request from 'supertest';
import { createSystem, createTaxpayer, createTestApp, type TestApp } from '@vf/api/testing';
import { signUp, submitForm } from '../testing/dashboard-agent';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function ready(isProduction = false) {
  const a = await signUp(t.app, 'Gestoría Pruebas', 'es');
  const taxpayerId = await createTaxpayer(t.app, a, { is_production: isProduction });
  const systemId = await createSystem(t.app, a);
  return { a, taxpayerId, systemId, page: `/app/taxpayers/${taxpayerId}` };
}

describe('the sandbox panel of a taxpayer’s page', () => {
  it('sends a test invoice under the chosen scenario and shows it on the invoice’s page, in Spanish first', async () => {
    const { a, taxpayerId, systemId, page } = await ready();
    const shown = await a.agent.get(page).expect(200);
    expect(shown.text).toContain('Factura de prueba con escenario');
    const sent = await submitForm(a.agent, page, `${page}/test-invoice`, { system_id: systemId, scenario: 'rejected', parameter: '1100' });
    expect(sent.status).toBe(303);
    const invoicePage = await a.agent.get(sent.headers.location).expect(200);
    expect(invoicePage.text).toContain('data-testid="sandbox-scenario">rejected:1100<');
    expect(invoicePage.text).toContain('la respondió el simulador, no la AEAT');
    const id = sent.headers.location.split('/').pop();
    const detail = (await request(t.app).get(`/api/v1/invoices/${id}`).set(a.auth).expect(200)).body.data;
    expect(detail).toMatchObject({ taxpayer_id: taxpayerId, sandbox_scenario: 'rejected:1100', authority_status: 'queued' });
  });

  it('asks for the parameter a scenario needs, and says what the API refuses, writing nothing', async () => {
    const { a, systemId, page } = await ready();
    const missing = await submitForm(a.agent, page, `${page}/test-invoice`, { system_id: systemId, scenario: 'rejected', parameter: '' });
    expect(missing.status).toBe(422);
    expect(missing.text).toContain('Este escenario necesita un código o un número de segundos.');
    const wrong = await submitForm(a.agent, page, `${page}/test-invoice`, { system_id: systemId, scenario: 'rejected', parameter: '4104' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('rejected lleva un código de nivel registro; 4104 es de nivel mensaje.');
    const unknown = await submitForm(a.agent, page, `${page}/test-invoice`, { system_id: systemId, scenario: 'approved', parameter: '' });
    expect([unknown.status, unknown.text.includes('«approved» no es un escenario del catálogo.')]).toEqual([400, true]);
    expect((await request(t.app).get('/api/v1/invoices').set(a.auth).expect(200)).body.total).toBe(0);
  });

  it('says a refusal in English to an English reader, as the API does', async () => {
    const a = await signUp(t.app, 'Test Ltd', 'en');
    const page = `/app/taxpayers/${await createTaxpayer(t.app, a)}`;
    const systemId = await createSystem(t.app, a);
    const wrong = await submitForm(a.agent, page, `${page}/test-invoice`, { system_id: systemId, scenario: 'rejected', parameter: '4104' });
    expect([wrong.status, wrong.text.includes('4104 is of level message')]).toEqual([400, true]);
  });

  it('is not offered on a production taxpayer', async () => {
    const { a, page } = await ready(true);
    expect((await a.agent.get(page).expect(200)).text).not.toContain('test-invoice');
  });
});
