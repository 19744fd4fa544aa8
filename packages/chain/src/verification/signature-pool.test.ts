import { readFileSync } from 'node:fs';
import { createTestCa, issueCertificate } from '@vf/certificates/testing';
import { buildRecordXml } from '@vf/xml';
import { f1Record, SAMPLE_ISSUER } from '@vf/xml/testing';
import { signingIdentity, signRecord } from '@vf/signing';
import { closeSignaturePool, verifyKeptSignatures, verifySignatures } from './signature-pool';
import { verifyRecordSignature } from '@vf/signing/verify-record-signature';

afterAll(() => closeSignaturePool());

const ca = createTestCa();
const identity = signingIdentity(issueCertificate(ca, { commonName: 'CONTRIBUYENTE DE PRUEBAS', nif: SAMPLE_ISSUER.nif }));
const at = new Date();
const signed = (i: number) =>
  signRecord(buildRecordXml(f1Record({ invoiceNumber: `POOL-${i}` }, { hash: String(i).padStart(64, '0') })), identity, { at });

it('gives each record the verdict the verifier gives it in this thread, in the records’ order, across slices', async () => {
  const xmls: (string | null)[] = Array.from({ length: 250 }, (_, i) => signed(i));
  xmls[3] = null;
  xmls[120] = xmls[120]!.replace('POOL-120', 'POOL-999');
  xmls[249] = 'not xml at all';
  const verdicts = await verifySignatures(xmls);
  expect(verdicts).toHaveLength(250);
  expect(verdicts[3]).toBeUndefined();
  expect(verdicts[0]).toMatchObject({ status: 'valid' });
  expect(verdicts[120]?.status).toBe('invalid');
  expect(verdicts[249]?.status).toBe('invalid');
  verdicts.forEach((v, i) => {
    if (xmls[i] !== null) expect(v).toEqual(verifyRecordSignature(xmls[i]!));
  });
  // The signer's validity dates cross the thread as dates (of the main realm: jest's test realm has its own Date).
  const notAfter = verdicts[0]?.status === 'valid' ? verdicts[0].signer.notAfter : undefined;
  expect(Object.prototype.toString.call(notAfter)).toBe('[object Date]');
});

it('answers again after the pool was stopped, and answers nothing to verify without starting it', async () => {
  await closeSignaturePool();
  expect(await verifySignatures([null, null])).toEqual([undefined, undefined]);
  expect((await verifySignatures([signed(1)]))[0]?.status).toBe('valid');
});

it('uses the compiled verifier beside the sources', () => {
  expect(readFileSync(require.resolve('../../threads/verify-signatures.cjs'), 'utf8')).toMatch(/dist\/records\/chain-record-row/);
});

it('answers a signature kept in a form this version cannot write as invalid, saying why, without failing the others', async () => {
  const verdicts = await verifyKeptSignatures([
    { form: 99, row: { id: 'r' } as never, parts: { signatureValue: Buffer.alloc(256) } as never },
  ]);
  expect(verdicts).toEqual([{ status: 'invalid', problems: [expect.stringMatching(/form 99, which this version cannot write/)] }]);
});
