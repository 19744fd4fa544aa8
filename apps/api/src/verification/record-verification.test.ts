import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { createTestCa, issueCertificate, toPkcs12, type IssuedCertificate } from '@vf/certificates/testing';
import { invoices, SignedRecordConflictError, signedRecordStore, signedRecords } from '@vf/db';
import { signingIdentity, signRecord } from '@vf/signing';
import { invoiceBody, readyAccount, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

// The worker signs records (e2e/src/worker/signed-records.test.ts); here the stored signature is set by hand, to show
// what the verification endpoint says of each kind of signature a database could hold.
const DAY_MS = 86_400_000;
const NIF = '89890001K';
const PLATFORM_NIF = 'B85905495';
const ca = createTestCa();
const taxpayerCert = issueCertificate(ca, { commonName: 'CONTRIBUYENTE', nif: NIF });
const platformCert = issueCertificate(ca, { commonName: 'PLATAFORMA', nif: PLATFORM_NIF });
const dir = mkdtempSync(join(tmpdir(), 'record-verification-'));

let t: TestApp;
let account: TestAccount;
let taxpayerId: string;
let systemId: string;

beforeAll(async () => {
  writeFileSync(join(dir, 'platform.p12'), toPkcs12(platformCert, 'pw'));
  t = await createTestApp({ config: { platformCertificate: { path: join(dir, 'platform.p12'), password: 'pw' } } });
  ({ account, taxpayerId, systemId } = await readyAccount(t.app, { nif: NIF }));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A registered invoice's record, signed with `cert` (the record's XML as the API shows it before signing) and stored. */
async function signedWith(cert: IssuedCertificate, at = new Date(), tamper = (xml: string) => xml) {
  const invoice = (await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201)).body
    .data;
  const base = `/api/v1/invoices/${invoice.id}/records/${invoice.id}`;
  const unsigned = (await request(t.app).get(`${base}/xml`).set(account.auth).expect(200)).text.replace(/^<\?xml[^>]*\?>\n/, '');
  const xml = tamper(signRecord(unsigned, signingIdentity(cert), { at }));
  await signedRecordStore.keep(t.db.db, [{ invoiceId: invoice.id, xml }]);
  return { id: invoice.id as string, base, xml };
}

const verification = async (base: string) => (await request(t.app).get(`${base}/verification`).set(account.auth).expect(200)).body.data;

test("a record signed with the taxpayer's certificate, or the platform's, verifies; its XML is the signed record as stored", async () => {
  const own = await signedWith(taxpayerCert);
  expect(await verification(own.base)).toMatchObject({
    valid: true,
    hash: { valid: true },
    link: { valid: true, problem: null },
    signature: { status: 'valid', problems: [], signer: { subject: expect.stringContaining(NIF) } },
  });
  expect((await request(t.app).get(`${own.base}/xml`).set(account.auth).expect(200)).text).toBe(own.xml);

  const platform = await signedWith(platformCert);
  expect(await verification(platform.base)).toMatchObject({ valid: true, signature: { status: 'valid' } });
});

test('a record signed with an expired or a foreign certificate is reported invalid', async () => {
  const expiredCert = issueCertificate(ca, {
    commonName: 'CADUCADO',
    nif: NIF,
    notBefore: new Date(Date.now() - 400 * DAY_MS),
    notAfter: new Date(Date.now() - DAY_MS),
  });
  const expired = await verification((await signedWith(expiredCert)).base);
  expect(expired).toMatchObject({ valid: false, hash: { valid: true }, signature: { status: 'invalid' } });
  expect(expired.signature.problems).toEqual([expect.stringMatching(/outside the certificate's validity/)]);

  const foreign = await verification((await signedWith(issueCertificate(ca, { commonName: 'OTRA EMPRESA', nif: 'A86018322' }))).base);
  expect(foreign).toMatchObject({ valid: false, signature: { status: 'invalid' } });
  expect(foreign.signature.problems).toEqual([
    expect.stringMatching(/foreign certificate .*A86018322.*neither the taxpayer's nor the platform's/),
  ]);
});

test('a record tampered with in the database is reported, whether its row or its signed bytes changed', async () => {
  const row = await signedWith(taxpayerCert);
  await t.db.db.update(invoices).set({ totalAmount: '999.00' }).where(eq(invoices.id, row.id));
  const changedRow = await verification(row.base);
  // Kept as its signature's parts, the signed record is written again from the changed row: its signature fails too.
  expect(changedRow).toMatchObject({ valid: false, hash: { valid: false }, signature: { status: 'invalid' } });
  expect(changedRow.signature.problems).toContain('the signature value does not verify with the certificate in KeyInfo');

  const bytes = await signedWith(taxpayerCert);
  // Written back as a row kept before packing holds it (as text), where a database edit can reach it.
  await t.db.db
    .update(signedRecords)
    .set({
      xml: bytes.xml.replace('<sum1:ImporteTotal>', '<sum1:ImporteTotal>1'),
      ...{ packed: null, certificateId: null, form: null, signatureValue: null, signingTime: null, signatureId: null },
    })
    .where(eq(signedRecords.invoiceId, bytes.id));
  const changedBytes = await verification(bytes.base);
  expect(changedBytes).toMatchObject({ valid: false, hash: { valid: true }, signature: { status: 'invalid' } });
  expect(changedBytes.signature.problems).toEqual([
    'the digest of the record does not match: the signed content was changed',
    'the signed record differs from the record stored in the database',
  ]);
});

test('an unsigned record is reported as such, and is no fault', async () => {
  const invoice = (await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201)).body
    .data;
  expect(await verification(`/api/v1/invoices/${invoice.id}/records/${invoice.id}`)).toMatchObject({
    valid: true,
    signature: { status: 'missing', problems: [], signer: null, signing_time: null },
  });
});

test('a record keeps the first signature stored: a second version is refused and nothing of its batch is written', async () => {
  const first = await signedWith(taxpayerCert);
  const other = (await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201)).body
    .data;
  // As the worker does it: in the transaction that opens the submission, which the refusal rolls back.
  const again = t.db.db.transaction((tx) =>
    signedRecordStore.keep(tx, [
      { invoiceId: other.id, xml: '<other/>' },
      { invoiceId: first.id, xml: '<second-version/>' },
    ]),
  );
  await expect(again).rejects.toBeInstanceOf(SignedRecordConflictError);
  await expect(again).rejects.toMatchObject({ invoiceIds: [first.id] });
  const stored = await signedRecordStore.of(t.db.db, [first.id, other.id]);
  expect([...stored]).toEqual([[first.id, first.xml]]);
});
