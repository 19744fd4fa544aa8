import request from 'supertest';
import { sql } from 'drizzle-orm';
import { createTestCa, issueCertificate } from '@vf/certificates/testing';
import { signedRecordStore } from '@vf/db';
import { signingIdentity, signRecord } from '@vf/signing';
import { verifyRecordSignature } from '@vf/signing/verify-record-signature';
import { invoiceBody, readyAccount } from '../testing/api-fixtures';
import { createTestApp, type TestApp } from '../testing/test-app';
import { createChainVerificationService } from './chain-verification-service';

// Signed records kept as their signature's values (decision 0064) are verified in a chain's walk from those values
// and the SignedInfo their rows write, without writing the record's text: the verdicts must be the full verifier's,
// and any stored value changed must be found.

const ca = createTestCa();
const identity = signingIdentity(issueCertificate(ca, { commonName: 'TITULAR DE PRUEBAS', nif: 'B85905495' }));
// The second record is signed with another certificate: each record of a slice sent to a thread must be checked with its own.
const other = signingIdentity(issueCertificate(ca, { commonName: 'OTRO TITULAR DE PRUEBAS', nif: 'B85905495' }));
// Whose certificate may sign is the signer policy's question, tested on its own: here every signer may.
const anySigner = { problem: async () => undefined };
let t: TestApp;
let accountId: string;
let nif: string;
const ids: string[] = [];
const verify = () => createChainVerificationService({ db: t.db.db, signers: anySigner }).verifyByNif(accountId, nif, undefined, {});

beforeAll(async () => {
  t = await createTestApp();
  const { account, taxpayerId, systemId } = await readyAccount(t.app);
  // The fourth signed under an id of another form: kept packed, its text verified on the signature pool's threads.
  for (let i = 0; i < 4; i += 1) {
    const id = (await request(t.app).post('/api/v1/invoices').set(account.auth).send(invoiceBody(taxpayerId, systemId)).expect(201)).body
      .data.id as string;
    const xml = (await request(t.app).get(`/api/v1/invoices/${id}/records/${id}/xml`).set(account.auth).expect(200)).text;
    const signed = signRecord(xml.replace(/^<\?xml[^>]*\?>\n/, ''), i === 1 ? other : identity, {
      at: new Date(),
      id: i < 3 ? `xmldsig-${id}` : 'firma-0001',
    });
    await signedRecordStore.keep(t.db.db, [{ invoiceId: id, xml: signed }]);
    ids.push(id);
  }
  ({ account_id: accountId, nif } = (
    await t.db.db.execute<{ account_id: string; nif: string }>(sql`SELECT account_id, nif FROM taxpayers WHERE id = ${taxpayerId}`)
  ).rows[0]);
});
afterAll(() => t.close());

it('gives each signature the full verifier’s verdict, from its parts without the record’s text or from its kept text', async () => {
  const { rows } = await t.db.db.execute<{ form: number | null }>(
    sql`SELECT form FROM signed_records s JOIN invoices i ON i.id = s.invoice_id
        WHERE s.invoice_id = ANY(${sql.param(ids)}::uuid[]) ORDER BY i.chain_seq`,
  );
  expect(rows.map((r) => r.form)).toEqual([1, 1, 1, null]);
  const texts = await signedRecordStore.of(t.db.db, ids);
  for (const id of ids) expect(verifyRecordSignature(texts.get(id)!).status).toBe('valid');
  expect(await verify()).toMatchObject({ ok: true, verified: 4, signatures: { valid: 4, invalid: 0, missing: 0 } });
});

it('finds a certificate changed where it is kept once: the records it signed fail, the other certificate’s still verify', async () => {
  const kept = identity.certificate.base64;
  // A byte of the certificate's own signature, near its end: still a certificate of the same key, no longer the one
  // SigningCertificate names.
  const at = kept.length - 10;
  const changed = kept.slice(0, at) + (kept[at] === 'A' ? 'B' : 'A') + kept.slice(at + 1);
  await t.db.db.execute(sql`UPDATE signing_certificates SET certificate = ${changed} WHERE certificate = ${kept}`);
  try {
    const result = await verify();
    expect(result).toMatchObject({ ok: false, verified: 4, signatures: { valid: 1, invalid: 3, missing: 0 } });
    expect(result.invalidSignatures.map((b) => [b.position, b.problem])).toEqual(
      [1, 3, 4].map((position) => [position, expect.stringMatching(/SigningCertificate does not name the certificate|cannot be read/)]),
    );
  } finally {
    await t.db.db.execute(sql`UPDATE signing_certificates SET certificate = ${kept} WHERE certificate = ${changed}`);
  }
  expect(await verify()).toMatchObject({ ok: true, signatures: { valid: 4 } });
});

it('finds a changed signing time and a changed signature value, as the full verifier does', async () => {
  await t.db.db.execute(sql`UPDATE signed_records SET signing_time = signing_time + interval '1 second' WHERE invoice_id = ${ids[1]}`);
  await t.db.db.execute(
    sql`UPDATE signed_records SET signature_value = set_byte(signature_value, 7, get_byte(signature_value, 7) # 1) WHERE invoice_id = ${ids[2]}`,
  );
  const texts = await signedRecordStore.of(t.db.db, ids);
  expect(ids.map((id) => verifyRecordSignature(texts.get(id)!).status)).toEqual(['valid', 'invalid', 'invalid', 'valid']);
  const result = await verify();
  expect(result).toMatchObject({ ok: false, verified: 4, signatures: { valid: 2, invalid: 2, missing: 0 } });
  expect(result.invalidSignatures.map((b) => [b.position, b.problem])).toEqual([
    [2, expect.stringMatching(/signature does not verify/)],
    [3, expect.stringMatching(/signature does not verify/)],
  ]);
});

it('finds a row changed since its record was signed, though its huella still holds', async () => {
  // The description is not part of the huella: only the signature, over the record the row writes, can tell.
  await t.db.db.execute(sql`UPDATE invoices SET description = description || ' (changed)' WHERE id = ${ids[0]}`);
  const texts = await signedRecordStore.of(t.db.db, ids);
  expect(verifyRecordSignature(texts.get(ids[0])!).status).toBe('invalid');
  const result = await verify();
  expect(result).toMatchObject({ ok: false, verified: 4, signatures: { valid: 1, invalid: 3, missing: 0 } });
  expect(result.invalidSignatures.map((b) => [b.position, b.problem])).toEqual([
    [1, expect.stringMatching(/signature does not verify/)],
    [2, expect.stringMatching(/signature does not verify/)],
    [3, expect.stringMatching(/signature does not verify/)],
  ]);
});
