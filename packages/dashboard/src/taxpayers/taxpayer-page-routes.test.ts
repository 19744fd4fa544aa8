import request from 'supertest';
import { createTestCa, issueCertificate, toPkcs12 } from '@vf/certificates/testing';
import { createSystem, invoiceBody, uniqueNif, createTestApp, type TestApp } from '@vf/api/testing';
import { csrfTokenIn, signUp, submitForm, type DashboardAccount } from '../testing/dashboard-agent';

const DAY = 24 * 60 * 60 * 1000;
let t: TestApp;
const ca = createTestCa();

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function createInUi(a: DashboardAccount, fields: Record<string, string>, file?: { p12: Buffer; password: string }) {
  const page = await a.agent.get('/app/taxpayers/new').expect(200);
  let req = a.agent.post('/app/taxpayers').field('_csrf', csrfTokenIn(page.text));
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  if (file) req = req.attach('certificate', file.p12, 'taxpayer.p12').field('certificate_password', file.password);
  return req;
}

async function apiTaxpayers(a: DashboardAccount) {
  return (await request(t.app).get('/api/v1/taxpayers').set(a.auth).expect(200)).body.data as Array<Record<string, unknown>>;
}

describe('taxpayers in the dashboard', () => {
  it('creates a taxpayer the API then lists, in social-collaborator mode when no certificate is given', async () => {
    const a = await signUp(t.app);
    const res = await createInUi(a, { nif: '89890001k', name: 'Contribuyente Uno SL', is_production: 'true' });
    expect(res.status).toBe(303);
    const detail = await a.agent.get(res.headers.location).expect(200);
    expect(detail.text).toContain('Taxpayer created.');
    expect(detail.text).toContain('Social collaborator: the platform signs');
    expect(detail.text).toContain('badge--production');
    const [listed] = await apiTaxpayers(a);
    expect(listed).toMatchObject({
      nif: '89890001K',
      name: 'Contribuyente Uno SL',
      is_production: true,
      signing_mode: 'social_collaborator',
    });
  });

  it('explains an invalid NIF and a duplicate NIF in words, keeping what was typed', async () => {
    const a = await signUp(t.app);
    const bad = await createInUi(a, { nif: '89890001A', name: 'Mal NIF SL' });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('NIF is not a valid Spanish NIF, NIE or CIF (wrong format or check character).');
    expect(bad.text).toContain('value="Mal NIF SL"');

    expect((await createInUi(a, { nif: '89890001K', name: 'Primero' })).status).toBe(303);
    const dup = await createInUi(a, { nif: '89890001K', name: 'Segundo' });
    expect(dup.status).toBe(409);
    expect(dup.text).toContain('a taxpayer with this NIF already exists in your account');

    // Another account holding the NIF in this environment: the form says so and where to turn.
    const other = await signUp(t.app);
    const claimed = await createInUi(other, { nif: '89890001K', name: 'Ajeno' });
    expect(claimed.status).toBe(409);
    expect(claimed.text).toContain('another account holds this NIF in this environment; if it is yours, contact support');
    expect(claimed.text).toContain('value="Ajeno"');
  });

  it('uploads a PKCS#12, shows its subject, NIF and expiry, and warns when it expires soon', async () => {
    const a = await signUp(t.app);
    const soon = issueCertificate(ca, { commonName: 'EMPRESA PRUEBAS', nif: 'B85905495', notAfter: new Date(Date.now() + 10 * DAY) });
    const res = await createInUi(
      a,
      { nif: 'B85905495', name: 'Empresa Pruebas SL' },
      { p12: toPkcs12(soon, 'secreto 1', ca), password: 'secreto 1' },
    );
    expect(res.status).toBe(303);
    const page = (await a.agent.get(res.headers.location)).text;
    expect(page).toContain('CN=EMPRESA PRUEBAS - B85905495');
    expect(page).toMatch(/Holder NIF<\/dt><dd>B85905495/);
    expect(page).toMatch(/Own certificate, expires in (9|10) days/);
    expect(page).toMatch(/The certificate expires in (9|10) day/);
    // The password is never shown back.
    expect(page).not.toContain('secreto 1');
  });

  it('warns about the certificate in Spanish on a Spanish page', async () => {
    const a = await signUp(t.app, 'Gestoría', 'es');
    const soon = issueCertificate(ca, { commonName: 'EMPRESA DOS', nif: 'A86018322', notAfter: new Date(Date.now() + 10 * DAY) });
    const nif = uniqueNif();
    const res = await createInUi(a, { nif, name: 'Empresa Dos SL' }, { p12: toPkcs12(soon, 'clave', ca), password: 'clave' });
    expect(res.status).toBe(303);
    const page = (await a.agent.get(res.headers.location)).text;
    expect(page).toContain(`El certificado es del NIF A86018322, no de ${nif}`);
    expect(page).toMatch(/El certificado caduca en (9|10) día\(s\), el \d\d\/\d\d\/\d{4} \d\d:\d\d\./);
    expect(page).not.toContain('The certificate');
  });

  it('refuses a certificate whose password is wrong, saying which field is wrong', async () => {
    const a = await signUp(t.app);
    const created = await createInUi(a, { nif: uniqueNif(), name: 'Sin certificado' });
    const detail = await a.agent.get(created.headers.location);
    const cert = issueCertificate(ca, { commonName: 'PERSONA', nif: '89890001K' });
    const res = await a.agent
      .post(`${created.headers.location.split('?')[0]}/certificate`)
      .field('_csrf', csrfTokenIn(detail.text))
      .attach('certificate', toPkcs12(cert, 'right', ca), 'c.p12')
      .field('certificate_password', 'wrong');
    expect(res.status).toBe(422);
    expect(res.text).toContain('The certificate password does not open this PKCS#12 file.');
    expect(res.text).toContain('href="#field-certificate_password"');
    expect((await apiTaxpayers(a))[0]).toMatchObject({ signing_mode: 'social_collaborator' });
  });

  it('deletes a taxpayer without invoices', async () => {
    const a = await signUp(t.app);
    const created = await createInUi(a, { nif: uniqueNif(), name: 'Borrable' });
    const path = created.headers.location.split('?')[0];
    const res = await submitForm(a.agent, path, `${path}/delete`, {});
    expect(res.status).toBe(303);
    expect(await apiTaxpayers(a)).toEqual([]);
  });

  it('explains why a taxpayer with registered invoices cannot be deleted, and keeps it', async () => {
    const a = await signUp(t.app);
    const created = await createInUi(a, { nif: uniqueNif(), name: 'Con facturas' });
    const path = created.headers.location.split('?')[0];
    const taxpayerId = path.split('/').pop()!;
    const systemId = await createSystem(t.app, { ...a, auth: a.auth });
    await request(t.app).post('/api/v1/invoices').set(a.auth).send(invoiceBody(taxpayerId, systemId)).expect(201);

    const page = (await a.agent.get(path)).text;
    expect(page).toContain('This taxpayer cannot be deleted: it has 1 registered record.');
    // A stale form (or a hand-made POST) still gets the 409 rule, in words.
    const res = await a.agent
      .post(`${path}/delete`)
      .type('form')
      .send({ _csrf: csrfTokenIn(page) });
    expect(res.status).toBe(409);
    expect(res.text).toContain('Not deleted. A taxpayer with registered invoices cannot be deleted');
    expect(await apiTaxpayers(a)).toHaveLength(1);
  });

  it('refuses to change the NIF once records exist, as the API does', async () => {
    const a = await signUp(t.app);
    const nif = uniqueNif();
    const created = await createInUi(a, { nif, name: 'Fijo' });
    const path = created.headers.location.split('?')[0];
    const systemId = await createSystem(t.app, { ...a, auth: a.auth });
    await request(t.app)
      .post('/api/v1/invoices')
      .set(a.auth)
      .send(invoiceBody(path.split('/').pop()!, systemId))
      .expect(201);
    const res = await submitForm(a.agent, path, path, { nif: 'B85905495', name: 'Fijo' });
    expect(res.status).toBe(409);
    expect(res.text).toContain('The NIF cannot change once invoices were registered');
    expect((await apiTaxpayers(a))[0]).toMatchObject({ nif });
  });
});
