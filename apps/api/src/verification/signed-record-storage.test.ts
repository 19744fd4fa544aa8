import { sql } from 'drizzle-orm';
import request from 'supertest';
import { createTestCa, issueCertificate } from '@vf/certificates/testing';
import { signedRecords, signedRecordStore } from '@vf/db';
import { signingIdentity, signRecord } from '@vf/signing';
import { xmlsec1Verifies } from '@vf/signing/testing';
import { invoiceBody, readyAccount, type TestAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';

// A signed record is kept as parts (its signer's certificate once per certificate, the rest deflated against that
// certificate's dictionary) and must read back as the very bytes that were sent.
const NIF = '89890001K';
const ca = createTestCa();
const taxpayer = signingIdentity({ ...issueCertificate(ca, { commonName: 'CONTRIBUYENTE', nif: NIF }), chainPem: [ca.certPem] });
const platform = signingIdentity(issueCertificate(ca, { commonName: 'PLATAFORMA', nif: 'B85905495' }));

let t: TestApp;
let account: TestAccount;
let taxpayerId: string;
let systemId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ account, taxpayerId, systemId } = await readyAccount(t.app, { nif: NIF }));
});
afterAll(() => t.close());

/** A registered record's XML as the API shows it before signing, and its id. */
async function registered(): Promise<{ id: string; unsigned: string }> {
  const { id } = (await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201)).body
    .data;
  const unsigned = (await request(t.app).get(`/api/v1/invoices/${id}/records/${id}/xml`).set(account.auth).expect(200)).text;
  return { id, unsigned: unsigned.replace(/^<\?xml[^>]*\?>\n/, '') };
}

test('signed records read back byte for byte from their parts, still verify with xmlsec1, each certificate kept once', async () => {
  const records = await Promise.all([1, 2, 3, 4].map(() => registered()));
  const sent = records.map((r, i) => ({
    invoiceId: r.id,
    xml: signRecord(r.unsigned, i < 3 ? taxpayer : platform, { at: new Date() }),
  }));
  // The first as the worker hands its request's bytes over, the others as text.
  await t.db.db.transaction((tx) =>
    signedRecordStore.keep(tx, [{ invoiceId: sent[0].invoiceId, xml: Buffer.from(sent[0].xml) }, ...sent.slice(1, 2)]),
  );
  await t.db.db.transaction((tx) => signedRecordStore.keep(tx, sent.slice(2)));

  const read = await signedRecordStore.of(
    t.db.db,
    sent.map((s) => s.invoiceId),
  );
  for (const s of sent) {
    expect(Buffer.from(read.get(s.invoiceId) ?? '').equals(Buffer.from(s.xml))).toBe(true);
    expect(xmlsec1Verifies(read.get(s.invoiceId) ?? '', ca.certPem)).toMatchObject({ ok: true });
  }

  const certificates = await t.db.db.execute<{ certificate: string }>(sql`SELECT certificate FROM signing_certificates ORDER BY id`);
  expect(certificates.rows.map((c) => c.certificate)).toEqual([taxpayer.certificate.base64, platform.certificate.base64]);
  // Each row holds neither the certificate nor the markup its certificate's records share: well under a kilobyte.
  const sizes = await t.db.db.execute<{ bytes: number }>(
    sql`SELECT pg_column_size(s.*)::int AS bytes FROM signed_records s WHERE s.xml IS NULL AND s.invoice_id = ANY(${`{${sent.map((s) => s.invoiceId).join(',')}}`}::uuid[])`,
  );
  expect(sizes.rows).toHaveLength(4);
  for (const { bytes } of sizes.rows) expect(bytes).toBeLessThan(1000);
});

test('a record kept before packing (as text) and one with no certificate read back as they were kept', async () => {
  const [legacy, bare] = [await registered(), await registered()];
  const legacyXml = signRecord(legacy.unsigned, taxpayer, { at: new Date() });
  await t.db.db.insert(signedRecords).values({ invoiceId: legacy.id, xml: legacyXml });
  await signedRecordStore.keep(t.db.db, [{ invoiceId: bare.id, xml: bare.unsigned }]);
  const read = await signedRecordStore.of(t.db.db, [legacy.id, bare.id]);
  expect(read.get(legacy.id)).toBe(legacyXml);
  expect(read.get(bare.id)).toBe(bare.unsigned);
});
