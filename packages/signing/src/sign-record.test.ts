import { createHash } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { createTestCa, issueCertificate } from '@vf/certificates/testing';
import { buildRecordXml, buildRegFactuRequest, validateAgainstXsd } from '@vf/xml';
import { cancellationRecord, f1Record, SAMPLE_ISSUER } from '@vf/xml/testing';
import { canonicalize } from './canonicalize';
import { signingIdentity, signRecord, signRecordAsync } from './index';
import { verifyRecordSignature } from './verify-record-signature';
import { xmlsec1Verifies } from './testing';

const DAY_MS = 24 * 60 * 60 * 1000;
const ca = createTestCa();
const holder = issueCertificate(ca, { commonName: 'CONTRIBUYENTE DE PRUEBAS', nif: SAMPLE_ISSUER.nif });
const identity = signingIdentity({ keyPem: holder.keyPem, certPem: holder.certPem, chainPem: [ca.certPem] });
const at = new Date();

// Text the canonical form escapes or keeps as is: markup characters, quotes, accents, a line break.
const alta = f1Record(
  { invoiceNumber: 'A&B<1>"2"' },
  { description: "Consultoría 'ñ' & <desarrollo>\r\nsegunda línea", hash: 'A'.repeat(64) },
);
const anulacion = cancellationRecord(alta.id, { previous: { ...alta.id, hash: alta.hash }, hash: 'B'.repeat(64) });

function xmlCryptoVerifies(signed: string): boolean {
  const doc = new DOMParser().parseFromString(signed, 'text/xml');
  const check = new SignedXml({ getCertFromKeyInfo: SignedXml.getCertFromKeyInfo });
  check.loadSignature(doc.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature')[0] as unknown as Node);
  return check.checkSignature(signed);
}

describe.each([
  ['an alta', alta, '</sum1:RegistroAlta>'],
  ['an anulación', anulacion, '</sum1:RegistroAnulacion>'],
])('signing %s', (_label, record, closing) => {
  const unsigned = buildRecordXml(record);
  const signed = signRecord(unsigned, identity, { at });

  it('writes the record and its signature in canonical form: xml-crypto canonicalises them to the very same bytes', () => {
    expect(canonicalize(unsigned)).toBe(unsigned);
    expect(canonicalize(signed)).toBe(signed);
  });

  it('puts the signature last in the record and verifies with the project verifier, xml-crypto and xmlsec1', () => {
    expect(signed.startsWith(unsigned.slice(0, -closing.length))).toBe(true);
    expect(signed).toMatch(new RegExp(`</ds:Signature>${closing}$`));
    expect(verifyRecordSignature(signed)).toEqual({
      status: 'valid',
      signingTime: at.toISOString(),
      signer: expect.objectContaining({ subject: expect.stringContaining(SAMPLE_ISSUER.nif) }),
    });
    expect(xmlCryptoVerifies(signed)).toBe(true);
    expect(xmlsec1Verifies(signed, ca.certPem)).toMatchObject({ ok: true });
  });

  it('is schema-valid, on its own bytes, in a message beside unsigned records', async () => {
    const other = signRecord(buildRecordXml(f1Record({ invoiceNumber: 'OTRA' })), identity, { at });
    const message = buildRegFactuRequest({ obligado: SAMPLE_ISSUER }, [signed, record, other]);
    expect(message).toContain(`<sum:RegistroFactura>${signed}</sum:RegistroFactura>`);
    expect(await validateAgainstXsd(message, 'request')).toEqual({ valid: true, errors: [] });
  });

  it('fails verification when one literal of the record changes', () => {
    const tampered = signed.replace(`<sum1:Huella>${record.hash}<`, `<sum1:Huella>${record.hash.slice(0, -1)}0<`);
    expect(tampered).not.toBe(signed);
    expect(verifyRecordSignature(tampered)).toMatchObject({
      status: 'invalid',
      problems: ['the digest of the record does not match: the signed content was changed'],
    });
    expect(xmlCryptoVerifies(tampered)).toBe(false);
    expect(xmlsec1Verifies(tampered, ca.certPem)).toMatchObject({ ok: false });
  });
});

describe('what the signature says', () => {
  const signed = signRecord(buildRecordXml(alta), identity, { at, id: 'xmldsig-test' });

  it('carries the AGE policy with its hash and URL, the signing time, and the certificate with its chain', () => {
    expect(signed).toContain(
      '<xades:SigPolicyId><xades:Identifier>urn:oid:2.16.724.1.3.1.1.2.1.9</xades:Identifier></xades:SigPolicyId>' +
        '<xades:SigPolicyHash><ds:DigestMethod Algorithm="http://www.w3.org/2000/09/xmldsig#sha1"></ds:DigestMethod>' +
        '<ds:DigestValue>G7roucf600+f03r/o0bAOQ6WAs0=</ds:DigestValue></xades:SigPolicyHash>' +
        '<xades:SigPolicyQualifiers><xades:SigPolicyQualifier><xades:SPURI>https://sede.administracion.gob.es/politica_de_firma_anexo_1.pdf</xades:SPURI>',
    );
    expect(signed).toContain(`<xades:SigningTime>${at.toISOString()}</xades:SigningTime>`);
    expect(signed).toContain('<xades:DataObjectFormat ObjectReference="#xmldsig-test-ref0">');
    expect(signed.match(/<xades:Cert>/g)).toHaveLength(2);
    expect(signed).toContain(createHash('sha1').update(identity.certificate.base64, 'base64').digest('base64'));
    expect(signed).toContain(`<ds:X509Certificate>${identity.certificate.base64}</ds:X509Certificate>`);
  });

  it('is invalid when made with a certificate outside its validity, or when its properties lie', () => {
    const expired = issueCertificate(ca, {
      commonName: 'CADUCADO',
      nif: SAMPLE_ISSUER.nif,
      notBefore: new Date(Date.now() - 400 * DAY_MS),
      notAfter: new Date(Date.now() - DAY_MS),
    });
    const late = signRecord(buildRecordXml(alta), signingIdentity(expired), { at });
    expect(verifyRecordSignature(late)).toMatchObject({
      status: 'invalid',
      problems: [expect.stringMatching(/outside the certificate's validity/)],
    });

    const otherPolicy = signed.replace('urn:oid:2.16.724.1.3.1.1.2.1.9', 'urn:oid:2.16.724.1.3.1.1.2.1.8');
    expect(verifyRecordSignature(otherPolicy)).toMatchObject({
      status: 'invalid',
      problems: [expect.stringMatching(/digest of #xmldsig-test-signedprops does not match/), expect.stringMatching(/not the AGE policy/)],
    });
  });

  it('refuses a second element with the Id of the SignedProperties (signature wrapping)', () => {
    const wrapped = signed.replace(
      '</ds:Signature>',
      '<ds:Object><xades:SignedProperties xmlns:xades="http://uri.etsi.org/01903/v1.3.2#" Id="xmldsig-test-signedprops"></xades:SignedProperties></ds:Object></ds:Signature>',
    );
    expect(verifyRecordSignature(wrapped)).toMatchObject({
      status: 'invalid',
      problems: expect.arrayContaining(['the reference to #xmldsig-test-signedprops names 2 elements, not one']),
    });
  });

  it('refuses a record that is not a standalone canonical element', () => {
    expect(() => signRecord(`<?xml version="1.0"?>${buildRecordXml(alta)}`, identity, { at })).toThrow(/canonical/);
  });
});

describe('signing on the thread pool', () => {
  it('gives exactly the bytes signRecord gives, however many are signed at once', async () => {
    const records = Array.from({ length: 8 }, (_, i) => buildRecordXml(f1Record({ invoiceNumber: `POOL-${i}` })));
    const pooled = await Promise.all(records.map((r, i) => signRecordAsync(r, identity, { at, id: `xmldsig-${i}` })));
    expect(pooled).toEqual(records.map((r, i) => signRecord(r, identity, { at, id: `xmldsig-${i}` })));
    expect(verifyRecordSignature(pooled[7])).toMatchObject({ status: 'valid' });
  });

  it('rejects a record that is not a standalone canonical element, before any signing', async () => {
    await expect(signRecordAsync(`<?xml version="1.0"?>${buildRecordXml(alta)}`, identity, { at })).rejects.toThrow(/canonical/);
  });
});
