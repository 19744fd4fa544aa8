import request from 'supertest';
import { registerAccount, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
let owner: TestAccount;
let stranger: TestAccount;
beforeAll(async () => {
  t = await createTestApp();
  owner = await registerAccount(t.app, 'Owner');
  stranger = await registerAccount(t.app, 'Stranger');
});
afterAll(() => t.close());

const valid = {
  vendor_name: 'Software Vendor SL',
  vendor_nif: 'b-85905495',
  name: 'Facturador Pro',
  version: '2.1',
  installation_number: 'SHOP-0001',
};
const create = (account: TestAccount, body: Record<string, unknown>) => request(t.app).post('/api/v1/systems').set(account.auth).send(body);
const fieldCodes = (res: request.Response) => res.body.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`).sort();

describe('computer systems', () => {
  it('creates with the defaults the authority block needs', async () => {
    const res = await create(owner, valid).expect(201);
    expect(res.headers.location).toBe(`/api/v1/systems/${res.body.data.id}`);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      vendor_name: 'Software Vendor SL',
      vendor_nif: 'B85905495',
      name: 'Facturador Pro',
      version: '2.1',
      installation_number: 'SHOP-0001',
      only_supports_verifactu: true,
      system_code: 'FA',
      supports_multiple_taxpayers: true,
      sole_taxpayer_id: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('keeps explicit values', async () => {
    const res = await create(owner, {
      ...valid,
      only_supports_verifactu: false,
      supports_multiple_taxpayers: false,
      system_code: '7Z',
    }).expect(201);
    expect(res.body.data).toMatchObject({ only_supports_verifactu: false, supports_multiple_taxpayers: false, system_code: '7Z' });
  });

  it('validates the vendor NIF, the lengths and the code', async () => {
    const res = await create(owner, { ...valid, vendor_nif: 'B85905496', name: 'x'.repeat(31), system_code: 'Ñ1', version: '' }).expect(
      422,
    );
    expect(fieldCodes(res)).toEqual(['name:too_long', 'system_code:invalid_format', 'vendor_nif:invalid_nif', 'version:too_short']);
    for (const code of ['a1', 'ABC', 'A', 'Ñ0', 'A-']) {
      expect(fieldCodes(await create(owner, { ...valid, system_code: code }).expect(422))).toEqual(['system_code:invalid_format']);
    }
    const missing = await create(owner, {}).expect(422);
    expect(fieldCodes(missing)).toEqual([
      'installation_number:required',
      'name:required',
      'vendor_name:required',
      'vendor_nif:required',
      'version:required',
    ]);
  });

  it('trims only the spaces around the texts the record carries; another blank at an end is refused with its authority code', async () => {
    const spaced = await create(owner, { ...valid, vendor_name: ' Software Vendor SL ', name: 'Facturador Pro  ' }).expect(201);
    expect(spaced.body.data).toMatchObject({ vendor_name: 'Software Vendor SL', name: 'Facturador Pro' });
    const blanks = await create(owner, {
      ...valid,
      name: 'Facturador\u00a0',
      version: '\t2.1',
      installation_number: 'SHOP-1\u3000',
    }).expect(422);
    expect(blanks.body.errors).toEqual([
      expect.objectContaining({ field: 'name', code: 'surrounding_blank', authority_code: 1220 }),
      expect.objectContaining({ field: 'version', code: 'surrounding_blank', authority_code: 1100 }),
      expect.objectContaining({ field: 'installation_number', code: 'surrounding_blank', authority_code: 1100 }),
    ]);
    expect(blanks.body.errors[0].message).toContain('U+00A0');
  });

  it('rejects the contract placeholder name and other unknown fields', async () => {
    const res = await create(owner, { ...valid, only_supports_scheme: true }).expect(422);
    expect(fieldCodes(res)).toEqual(['only_supports_scheme:unknown_field']);
  });

  it('lists, reads, updates only the given fields, deletes', async () => {
    const id = (await create(owner, { ...valid, name: 'To change' }).expect(201)).body.data.id;
    const list = await request(t.app).get('/api/v1/systems').set(owner.auth).expect(200);
    expect(list.body.data.map((s: { id: string }) => s.id)).toContain(id);
    const updated = await request(t.app)
      .put(`/api/v1/systems/${id}`)
      .set(owner.auth)
      .send({ version: '3.0', only_supports_verifactu: false })
      .expect(200);
    expect(updated.body.data).toMatchObject({ name: 'To change', version: '3.0', only_supports_verifactu: false, system_code: 'TO' });
    expect((await request(t.app).get(`/api/v1/systems/${id}`).set(owner.auth).expect(200)).body.data.version).toBe('3.0');
    await request(t.app).put(`/api/v1/systems/${id}`).set(owner.auth).send({}).expect(422);
    await request(t.app).delete(`/api/v1/systems/${id}`).set(owner.auth).expect(204);
    await request(t.app).get(`/api/v1/systems/${id}`).set(owner.auth).expect(404);
  });

  it('pages the list oldest first with an opaque cursor', async () => {
    const account = await registerAccount(t.app, 'Pager');
    const ids: string[] = [];
    for (const name of ['One', 'Two', 'Three']) ids.push((await create(account, { ...valid, name }).expect(201)).body.data.id);
    const first = await request(t.app).get('/api/v1/systems?limit=2').set(account.auth).expect(200);
    expect(first.body.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(0, 2));
    const second = await request(t.app).get(`/api/v1/systems?limit=2&cursor=${first.body.next_cursor}`).set(account.auth).expect(200);
    expect(second.body).toEqual({ data: [expect.objectContaining({ id: ids[2] })], next_cursor: null });
    await request(t.app).get('/api/v1/systems?cursor=bogus').set(account.auth).expect(422);
  });

  it("another account's system does not exist: not listed, not readable, not writable, not deletable", async () => {
    const id = (await create(owner, valid).expect(201)).body.data.id;
    const list = await request(t.app).get('/api/v1/systems').set(stranger.auth).expect(200);
    expect(list.body.data).toEqual([]);
    expect((await request(t.app).get(`/api/v1/systems/${id}`).set(stranger.auth).expect(404)).body.code).toBe('system_not_found');
    await request(t.app).put(`/api/v1/systems/${id}`).set(stranger.auth).send({ version: 'hacked' }).expect(404);
    await request(t.app).delete(`/api/v1/systems/${id}`).set(stranger.auth).expect(404);
    expect((await request(t.app).get(`/api/v1/systems/${id}`).set(owner.auth).expect(200)).body.data.version).toBe('2.1');
  });
});
