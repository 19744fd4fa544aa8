import { X509Certificate } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { decryptSecret } from '@vf/certificates';
import { createTestCa, issueCertificate, toPkcs12 } from '@vf/certificates/testing';
import { createSystem, invoiceBody, registerAccount, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

const DAY = 86_400_000;
const PASSWORD = 'p12-Secret-Pass';
const ca = createTestCa();
const holder = issueCertificate(ca, { commonName: 'CONTRIBUYENTE', nif: '89890001K', notAfter: new Date(Date.now() + 400 * DAY) });
const p12 = toPkcs12(holder, PASSWORD, ca);
const p12Base64 = p12.toString('base64');

let t: TestApp;
let owner: TestAccount;
let stranger: TestAccount;
beforeAll(async () => {
  t = await createTestApp();
  owner = await registerAccount(t.app, 'Owner');
  stranger = await registerAccount(t.app, 'Stranger');
  writeFileSync(path.join(t.certificateDir, 'taxpayer.p12'), p12);
  mkdirSync(path.join(t.certificateDir, 'sub'));
  writeFileSync(path.join(t.certificateDir, 'sub', 'garbage.p12'), 'this is not a certificate');
  // A real PKCS#12 just outside the directory, reachable by traversal, absolute path or symlink.
  writeFileSync(path.join(t.certificateDir, '..', `${path.basename(t.certificateDir)}-outside.p12`), p12);
  symlinkSync(
    path.join(t.certificateDir, '..', `${path.basename(t.certificateDir)}-outside.p12`),
    path.join(t.certificateDir, 'link-out.p12'),
  );
});
afterAll(() => t.close());

let nifSeq = 0;
// Distinct valid DNIs, so tests do not collide on the one-NIF-per-account rule.
function freshNif(): string {
  const n = 10_000_000 + ++nifSeq;
  return `${n}${'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}`;
}

const create = (account: TestAccount, body: Record<string, unknown>) =>
  request(t.app).post('/api/v1/taxpayers').set(account.auth).send(body);
const update = (account: TestAccount, id: string, body: Record<string, unknown>) =>
  request(t.app).put(`/api/v1/taxpayers/${id}`).set(account.auth).send(body);

describe('taxpayers without certificate', () => {
  it('creates a sandbox taxpayer in social-collaborator mode', async () => {
    const res = await create(owner, { nif: 'es 8989-0001k', name: '  Contribuyente Uno  ' }).expect(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      nif: '89890001K',
      name: 'Contribuyente Uno',
      is_production: false,
      environment: 'sandbox',
      signing_mode: 'social_collaborator',
      has_certificate: false,
      certificate_path: null,
      certificate: null,
      chain: { total_records: 0, last_hash: null },
      operating_mode: 'verifactu',
      verifactu_ends_on: null,
      integrity_alarm: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      warnings: [],
    });
    const read = await request(t.app).get(`/api/v1/taxpayers/${res.body.data.id}`).set(owner.auth).expect(200);
    const { warnings, ...stored } = res.body.data;
    expect(warnings).toEqual([]);
    expect(read.body.data).toEqual(stored);
  });

  it('marks production taxpayers', async () => {
    const res = await create(owner, { nif: freshNif(), name: 'Prod', is_production: true }).expect(201);
    expect(res.body.data).toMatchObject({ is_production: true, environment: 'production' });
  });

  it('refuses a name with a blank other than a space at an end (the record carries it as NombreRazonEmisor)', async () => {
    const res = await create(owner, { nif: freshNif(), name: 'Contribuyente SL\u00a0' }).expect(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'name', code: 'surrounding_blank', authority_code: 1100 })]);
    const spaced = await create(owner, { nif: freshNif(), name: '  Contribuyente SL ' }).expect(201);
    expect(spaced.body.data.name).toBe('Contribuyente SL');
  });

  it('checks NIF check digits and required fields', async () => {
    const res = await create(owner, { nif: '89890001A', is_production: 'true' }).expect(422);
    expect(res.body.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`).sort()).toEqual([
      'is_production:invalid_type',
      'name:required',
      'nif:invalid_nif',
    ]);
  });

  it('refuses the same NIF twice in one account, and in another account in the same environment', async () => {
    const nif = freshNif();
    await create(owner, { nif, name: 'First' }).expect(201);
    const res = await create(owner, { nif, name: 'Second' }).expect(409);
    expect(res.body.code).toBe('taxpayer_exists');
    expect((await create(stranger, { nif, name: 'Elsewhere' }).expect(409)).body.code).toBe('taxpayer_claimed');
  });

  it('updates only the fields given', async () => {
    const id = (await create(owner, { nif: freshNif(), name: 'Before' }).expect(201)).body.data.id;
    const res = await update(owner, id, { name: 'After' }).expect(200);
    expect(res.body.data).toMatchObject({ name: 'After', is_production: false });
    expect((await update(owner, id, { is_production: true }).expect(200)).body.data).toMatchObject({ name: 'After', is_production: true });
    await update(owner, id, {}).expect(422);
    const taken = (await create(owner, { nif: freshNif(), name: 'Other' }).expect(201)).body.data.nif;
    expect((await update(owner, id, { nif: taken }).expect(409)).body.code).toBe('taxpayer_exists');
  });

  it('pages the list oldest first with an opaque cursor', async () => {
    const account = await registerAccount(t.app, 'Pager');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create(account, { nif: freshNif(), name: `T${i}` }).expect(201)).body.data.id);
    const first = await request(t.app).get('/api/v1/taxpayers?limit=2').set(account.auth).expect(200);
    expect(first.body.data.map((x: { id: string }) => x.id)).toEqual(ids.slice(0, 2));
    const second = await request(t.app).get(`/api/v1/taxpayers?limit=2&cursor=${first.body.next_cursor}`).set(account.auth).expect(200);
    expect(second.body).toEqual({ data: [expect.objectContaining({ id: ids[2] })], next_cursor: null });
    await request(t.app).get('/api/v1/taxpayers?limit=500').set(account.auth).expect(422);
  });

  it('lists and deletes', async () => {
    const id = (await create(owner, { nif: freshNif(), name: 'Doomed' }).expect(201)).body.data.id;
    expect(
      (await request(t.app).get('/api/v1/taxpayers').set(owner.auth).expect(200)).body.data.map((x: { id: string }) => x.id),
    ).toContain(id);
    await request(t.app).delete(`/api/v1/taxpayers/${id}`).set(owner.auth).expect(204);
    await request(t.app).get(`/api/v1/taxpayers/${id}`).set(owner.auth).expect(404);
  });
});

describe('certificates', () => {
  it('accepts a path inside the certificate directory and stores it encrypted, showing only facts', async () => {
    const res = await create(owner, {
      nif: '89890002E',
      name: 'Con certificado',
      certificate_path: 'taxpayer.p12',
      certificate_password: PASSWORD,
    }).expect(201);
    const data = res.body.data;
    expect(data).toMatchObject({ signing_mode: 'own_certificate', has_certificate: true, certificate_path: 'taxpayer.p12' });
    expect(data.certificate).toEqual({
      subject: 'C=ES, serialNumber=IDCES-89890001K, CN=CONTRIBUYENTE - 89890001K',
      nif: '89890001K',
      // X.509 keeps whole seconds.
      not_before: new Date(new X509Certificate(holder.certPem).validFrom).toISOString(),
      not_after: new Date(new X509Certificate(holder.certPem).validTo).toISOString(),
      expired: false,
      expires_in_days: 399,
      source: 'path',
    });
    // The certificate is someone else's: saved, with a warning.
    expect(data.warnings).toEqual([expect.objectContaining({ code: 'certificate_nif_mismatch' })]);
    expect(JSON.stringify(res.body)).not.toContain(PASSWORD);

    const { rows } = await t.db.db.execute(sql`SELECT certificate_p12, certificate_password FROM taxpayers WHERE id = ${data.id}`);
    const stored = rows[0] as { certificate_p12: Buffer; certificate_password: Buffer };
    expect(stored.certificate_p12.includes(p12.subarray(0, 64))).toBe(false);
    expect(stored.certificate_password.includes(Buffer.from(PASSWORD))).toBe(false);
    expect(decryptSecret(t.masterKey, stored.certificate_p12).equals(p12)).toBe(true);
    expect(decryptSecret(t.masterKey, stored.certificate_password).toString('utf8')).toBe(PASSWORD);
  });

  it('accepts an uploaded PKCS#12 in base64', async () => {
    const res = await create(owner, {
      nif: freshNif(),
      name: 'Subido',
      certificate_p12_base64: p12Base64,
      certificate_password: PASSWORD,
    }).expect(201);
    expect(res.body.data).toMatchObject({
      has_certificate: true,
      certificate_path: null,
      certificate: { source: 'upload', nif: '89890001K' },
    });
    expect(JSON.stringify(res.body)).not.toContain(p12Base64.slice(0, 40));
  });

  it('refuses paths outside the directory: traversal, absolute, symlink out, directories', async () => {
    const outsideName = `${path.basename(t.certificateDir)}-outside.p12`;
    for (const certificate_path of [
      `../${outsideName}`,
      path.join(t.certificateDir, '..', outsideName),
      'sub/../../' + outsideName,
      'link-out.p12',
      'sub',
      '.',
      '/etc/passwd',
    ]) {
      const res = await create(owner, { nif: freshNif(), name: 'X', certificate_path, certificate_password: PASSWORD }).expect(422);
      expect({ certificate_path, code: res.body.code }).toEqual({ certificate_path, code: 'certificate_path_not_allowed' });
    }
    // An absolute path inside the directory is fine.
    await create(owner, {
      nif: freshNif(),
      name: 'Abs',
      certificate_path: path.join(t.certificateDir, 'taxpayer.p12'),
      certificate_password: PASSWORD,
    }).expect(201);
  });

  it('tells a wrong password, an unreadable file and a missing file apart', async () => {
    const wrong = await create(owner, {
      nif: freshNif(),
      name: 'X',
      certificate_path: 'taxpayer.p12',
      certificate_password: 'wrong',
    }).expect(422);
    expect(wrong.body).toMatchObject({
      code: 'certificate_password_invalid',
      errors: [expect.objectContaining({ field: 'certificate_password' })],
    });
    const garbage = await create(owner, {
      nif: freshNif(),
      name: 'X',
      certificate_path: 'sub/garbage.p12',
      certificate_password: 'x',
    }).expect(422);
    expect(garbage.body.code).toBe('certificate_unreadable');
    const missing = await create(owner, { nif: freshNif(), name: 'X', certificate_path: 'nope.p12', certificate_password: 'x' }).expect(
      422,
    );
    expect(missing.body.code).toBe('certificate_unreadable');
    const upload = await create(owner, {
      nif: freshNif(),
      name: 'X',
      certificate_p12_base64: Buffer.from('junk junk').toString('base64'),
      certificate_password: 'x',
    });
    expect(upload.body.code).toBe('certificate_unreadable');
  });

  it('needs the password with the certificate, and only then', async () => {
    const noPassword = await create(owner, { nif: freshNif(), name: 'X', certificate_path: 'taxpayer.p12' }).expect(422);
    expect(noPassword.body.errors).toEqual([expect.objectContaining({ field: 'certificate_password', code: 'required' })]);
    const alone = await create(owner, { nif: freshNif(), name: 'X', certificate_password: PASSWORD }).expect(422);
    expect(alone.body.errors).toEqual([expect.objectContaining({ field: 'certificate_password', code: 'not_allowed' })]);
    const both = await create(owner, {
      nif: freshNif(),
      name: 'X',
      certificate_path: 'taxpayer.p12',
      certificate_p12_base64: p12Base64,
      certificate_password: PASSWORD,
    });
    expect(both.status).toBe(422);
  });

  it('refuses an expired certificate and warns about one expiring within 30 days', async () => {
    const expired = issueCertificate(ca, {
      commonName: 'OLD',
      nif: '89890001K',
      notBefore: new Date(Date.now() - 400 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    const res = await create(owner, {
      nif: freshNif(),
      name: 'X',
      certificate_p12_base64: toPkcs12(expired, 'pw').toString('base64'),
      certificate_password: 'pw',
    }).expect(422);
    expect(res.body.code).toBe('certificate_expired');

    const nif = freshNif();
    const soon = issueCertificate(ca, { commonName: 'SOON', nif, notAfter: new Date(Date.now() + 10 * DAY + 3_600_000) });
    const ok = await create(owner, {
      nif,
      name: 'X',
      certificate_p12_base64: toPkcs12(soon, 'pw').toString('base64'),
      certificate_password: 'pw',
    }).expect(201);
    expect(ok.body.data.certificate).toMatchObject({ expired: false, expires_in_days: 10 });
    expect(ok.body.data.warnings).toEqual([expect.objectContaining({ code: 'certificate_expires_soon' })]);
  });

  it('replaces and removes a certificate on PUT', async () => {
    const nif = freshNif();
    const own = issueCertificate(ca, { commonName: 'OWN', nif });
    const id = (await create(owner, { nif, name: 'X' }).expect(201)).body.data.id;
    const added = await update(owner, id, {
      certificate_p12_base64: toPkcs12(own, 'pw').toString('base64'),
      certificate_password: 'pw',
    }).expect(200);
    expect(added.body.data).toMatchObject({ signing_mode: 'own_certificate', certificate: { nif }, warnings: [] });
    const removed = await update(owner, id, { certificate_path: null }).expect(200);
    expect(removed.body.data).toMatchObject({
      signing_mode: 'social_collaborator',
      has_certificate: false,
      certificate: null,
      certificate_path: null,
    });
    const { rows } = await t.db.db.execute(sql`SELECT certificate_p12, certificate_password FROM taxpayers WHERE id = ${id}`);
    expect(rows[0]).toEqual({ certificate_p12: null, certificate_password: null });
  });

  it('never logs the certificate password or the uploaded file', async () => {
    await create(owner, { nif: freshNif(), name: 'Logged', certificate_p12_base64: p12Base64, certificate_password: PASSWORD }).expect(201);
    const logs = t.logs.join('\n');
    expect(logs).not.toContain(PASSWORD);
    expect(logs).not.toContain(p12Base64.slice(0, 40));
    expect(logs).not.toContain(owner.apiKey);
  });
});

describe('isolation and deletion rules', () => {
  it("another account's taxpayer is invisible and untouchable", async () => {
    const id = (await create(owner, { nif: freshNif(), name: 'Mine' }).expect(201)).body.data.id;
    expect(
      (await request(t.app).get('/api/v1/taxpayers').set(stranger.auth).expect(200)).body.data.map((x: { id: string }) => x.id),
    ).not.toContain(id);
    expect((await request(t.app).get(`/api/v1/taxpayers/${id}`).set(stranger.auth).expect(404)).body.code).toBe('taxpayer_not_found');
    await update(stranger, id, { name: 'Stolen' }).expect(404);
    await request(t.app).delete(`/api/v1/taxpayers/${id}`).set(stranger.auth).expect(404);
    expect((await request(t.app).get(`/api/v1/taxpayers/${id}`).set(owner.auth).expect(200)).body.data.name).toBe('Mine');
  });

  it('a taxpayer with registered invoices cannot be deleted, nor change NIF; nothing changes', async () => {
    const id = (await create(owner, { nif: freshNif(), name: 'Invoicing' }).expect(201)).body.data.id;
    const systemId = await createSystem(t.app, owner);
    await request(t.app).post('/api/v1/invoices').set(owner.auth).send(invoiceBody(id, systemId)).expect(201);
    const before = (await request(t.app).get(`/api/v1/taxpayers/${id}`).set(owner.auth).expect(200)).body.data;

    const res = await request(t.app).delete(`/api/v1/taxpayers/${id}`).set(owner.auth).expect(409);
    expect(res.body.code).toBe('taxpayer_has_invoices');
    expect((await update(owner, id, { nif: freshNif() }).expect(409)).body.code).toBe('taxpayer_has_invoices');
    expect((await request(t.app).get(`/api/v1/taxpayers/${id}`).set(owner.auth).expect(200)).body.data).toEqual(before);
    expect(before.chain.total_records).toBe(1);
    // The system is in use too.
    expect((await request(t.app).delete(`/api/v1/systems/${systemId}`).set(owner.auth).expect(409)).body.code).toBe('system_in_use');
  });
});
