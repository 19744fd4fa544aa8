import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { createTestCa, issueCertificate } from '@vf/certificates/testing';
import { SCHEMA_DIR } from '@vf/xml';
import { canonicalize } from './canonicalize';
import { signingIdentity, signRecord } from './index';
import { verifyRecordSignature } from './verify-record-signature';
import { xmlsec1Verifies } from './testing';

// AEAT's own pair from AnexosEjemplosFirmaRegFact.zip, vendored unchanged (packages/xml/schemas/README.md).
const EXAMPLES = join(SCHEMA_DIR, 'examples');
const unsignedExample = readFileSync(join(EXAMPLES, 'ejemploRegistro.xml'), 'utf8');
const signedExample = readFileSync(join(EXAMPLES, 'ejemploRegistro-firmado-epes-xades4j.xml'), 'utf8');

function dataDigest(signed: string): string | undefined {
  return /<ds:Reference Id="[^"]*-ref0" URI="">[\s\S]*?<ds:DigestValue>([^<]+)</.exec(signed)?.[1];
}

/** xml-crypto's own verifier, with the certificate the signature carries. */
function xmlCryptoVerifies(signed: string): boolean {
  const doc = new DOMParser().parseFromString(signed, 'text/xml');
  const signature = doc.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature')[0];
  const check = new SignedXml({ getCertFromKeyInfo: SignedXml.getCertFromKeyInfo });
  check.loadSignature(signature as unknown as Node);
  return check.checkSignature(signed);
}

describe("the authority's signed example", () => {
  it('verifies with the project verifier, every XAdES check included, and with xml-crypto and xmlsec1', () => {
    expect(verifyRecordSignature(signedExample)).toMatchObject({ status: 'valid', signingTime: '2025-02-03T16:15:55.105+01:00' });
    expect(xmlCryptoVerifies(signedExample)).toBe(true);
    expect(xmlsec1Verifies(signedExample)).toMatchObject({ ok: true });
  });

  it('no longer verifies once one literal is changed', () => {
    const tampered = signedExample.replace('<sum1:ImporteTotal>241.4<', '<sum1:ImporteTotal>241.40<');
    expect(verifyRecordSignature(tampered)).toEqual({
      status: 'invalid',
      problems: ['the digest of the record does not match: the signed content was changed'],
      signer: expect.objectContaining({ subject: expect.stringContaining('89890001K') }),
      signingTime: '2025-02-03T16:15:55.105+01:00',
    });
    expect(xmlsec1Verifies(tampered)).toMatchObject({ ok: false });
  });

  it('is reported without a signature when it has none', () => {
    expect(verifyRecordSignature(unsignedExample)).toEqual({ status: 'missing' });
  });
});

describe("signing the authority's unsigned example", () => {
  const ca = createTestCa();
  const holder = issueCertificate(ca, { commonName: 'CERTIFICADO UNO TELEMATICAS', nif: '89890001K' });
  const signed = signRecord(canonicalize(unsignedExample), signingIdentity(holder), { at: new Date() });

  it("digests the record exactly as the authority's signed example does", () => {
    expect(dataDigest(signedExample)).toBe('89qWVKHvtwa2CijR5a+DLFjRkqNjKRiz7fClSu1w0Mk=');
    expect(dataDigest(signed)).toBe('89qWVKHvtwa2CijR5a+DLFjRkqNjKRiz7fClSu1w0Mk=');
  });

  it('gives a signature the project verifier, xml-crypto and xmlsec1 (trusting the issuing CA) accept', () => {
    expect(verifyRecordSignature(signed)).toMatchObject({ status: 'valid' });
    expect(xmlCryptoVerifies(signed)).toBe(true);
    expect(xmlsec1Verifies(signed, ca.certPem)).toMatchObject({ ok: true });
  });
});
