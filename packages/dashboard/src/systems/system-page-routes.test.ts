import request from 'supertest';
import { createTaxpayer, invoiceBody, createTestApp, type TestApp } from '@vf/api/testing';
import { signUp, submitForm, type DashboardAccount } from '../testing/dashboard-agent';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const SYSTEM = {
  vendor_name: 'Software Vendor SL',
  vendor_nif: 'B85905495',
  name: 'Facturador Plus',
  version: '3.1.0',
  installation_number: 'INST-0042',
  only_supports_verifactu: 'true',
  supports_multiple_taxpayers: 'true',
};

async function apiSystems(a: DashboardAccount) {
  return (await request(t.app).get('/api/v1/systems').set(a.auth).expect(200)).body.data as Array<Record<string, unknown>>;
}

describe('computer systems in the dashboard', () => {
  it('creates a system the API lists, deriving the system code like the API does', async () => {
    const a = await signUp(t.app);
    const res = await submitForm(a.agent, '/app/systems/new', '/app/systems', SYSTEM);
    expect(res.status).toBe(303);
    expect((await a.agent.get(res.headers.location)).text).toContain('Computer system created.');
    expect(await apiSystems(a)).toEqual([
      expect.objectContaining({
        name: 'Facturador Plus',
        system_code: 'FA',
        only_supports_verifactu: true,
        supports_multiple_taxpayers: true,
      }),
    ]);
  });

  it('names the missing and invalid fields', async () => {
    const a = await signUp(t.app);
    const res = await submitForm(a.agent, '/app/systems/new', '/app/systems', {
      ...SYSTEM,
      vendor_nif: '12345678A',
      version: '',
      system_code: 'ñ1',
    });
    expect(res.status).toBe(422);
    expect(res.text).toContain('Vendor NIF is not a valid Spanish NIF');
    expect(res.text).toContain('Version is required.');
    expect(res.text).toContain('System code must be exactly 2 characters');
    expect(await apiSystems(a)).toEqual([]);
  });

  it('keeps a blank other than a space at the end of a name, for the service to refuse it in Spanish, instead of dropping it', async () => {
    const a = await signUp(t.app, 'Gestoría Ejemplo', 'es');
    const res = await submitForm(a.agent, '/app/systems/new', '/app/systems', { ...SYSTEM, name: 'Facturador Plus\u00a0' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('empieza o termina con un carácter en blanco que no es un espacio');
    expect(await apiSystems(a)).toEqual([]);
  });

  it('edits a system; an unticked box is saved as false', async () => {
    const a = await signUp(t.app);
    const created = await submitForm(a.agent, '/app/systems/new', '/app/systems', SYSTEM);
    const path = created.headers.location.split('?')[0];
    // A browser sends nothing at all for an unticked checkbox.
    const unticked: Record<string, string> = { ...SYSTEM, version: '3.2.0' };
    delete unticked.only_supports_verifactu;
    const res = await submitForm(a.agent, path, path, unticked);
    expect(res.status).toBe(303);
    expect((await apiSystems(a))[0]).toMatchObject({ version: '3.2.0', only_supports_verifactu: false });
  });

  it('refuses to delete a system registered invoices refer to, saying why', async () => {
    const a = await signUp(t.app);
    const created = await submitForm(a.agent, '/app/systems/new', '/app/systems', SYSTEM);
    const path = created.headers.location.split('?')[0];
    const taxpayerId = await createTaxpayer(t.app, { ...a });
    await request(t.app)
      .post('/api/v1/invoices')
      .set(a.auth)
      .send(invoiceBody(taxpayerId, path.split('/').pop()!))
      .expect(201);
    const res = await submitForm(a.agent, path, `${path}/delete`, {});
    expect(res.status).toBe(409);
    expect(res.text).toContain('Not deleted. Registered invoices refer to this computer system');
    expect(await apiSystems(a)).toHaveLength(1);
  });

  it('will not declare one taxpayer for a system whose records are of two, saying why on the box', async () => {
    const a = await signUp(t.app);
    const created = await submitForm(a.agent, '/app/systems/new', '/app/systems', SYSTEM);
    const path = created.headers.location.split('?')[0];
    const systemId = path.split('/').pop()!;
    for (const name of ['Uno', 'Dos']) {
      const taxpayerId = await createTaxpayer(t.app, { ...a }, { name });
      await request(t.app).post('/api/v1/invoices').set(a.auth).send(invoiceBody(taxpayerId, systemId)).expect(201);
    }
    const single: Record<string, string> = { ...SYSTEM };
    delete single.supports_multiple_taxpayers;
    const res = await submitForm(a.agent, path, path, single);
    expect(res.status).toBe(409);
    expect(res.text).toContain('This system already keeps records of several taxpayers');
    expect((await apiSystems(a))[0]).toMatchObject({ supports_multiple_taxpayers: true });
  });

  it('deletes an unused system', async () => {
    const a = await signUp(t.app);
    const created = await submitForm(a.agent, '/app/systems/new', '/app/systems', SYSTEM);
    const path = created.headers.location.split('?')[0];
    expect((await submitForm(a.agent, path, `${path}/delete`, {})).status).toBe(303);
    expect(await apiSystems(a)).toEqual([]);
  });
});
