import { createPrivateKey, createPublicKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { CertificateError } from './certificate-error';
import { readPkcs12 } from './read-pkcs12';
import { createTestCa, issueCertificate, toPkcs12, type IssuedCertificate } from './testing';

const ca = createTestCa();
const notAfter = new Date('2031-06-30T12:00:00Z');
const holder = issueCertificate(ca, { commonName: 'NOMBRE APELLIDO', nif: '89890001K', notAfter });

// A correctly encoded UTF8String subject (node-forge encodes the value once on write).
function accentedCertificate(): IssuedCertificate {
  const keyPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const key = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = notAfter;
  const subject = [{ shortName: 'CN', value: 'JOSÉ PEÑA - 89890001K', valueTagClass: forge.asn1.Type.UTF8 as unknown as forge.asn1.Class }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.sign(key, forge.md.sha256.create());
  return { cert, key, keyPem, certPem: forge.pki.certificateToPem(cert) };
}

function reasonOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof CertificateError) return err.reason;
    throw err;
  }
  return undefined;
}

describe('readPkcs12', () => {
  it('returns the holder certificate, its key, the rest of the chain and the facts shown to users', () => {
    const contents = readPkcs12(toPkcs12(holder, 'pw-123', ca), 'pw-123');
    expect(new X509Certificate(contents.certPem).fingerprint256).toBe(new X509Certificate(holder.certPem).fingerprint256);
    expect(createPublicKey(createPrivateKey(contents.keyPem)).export({ format: 'jwk' })).toEqual(
      createPublicKey(holder.certPem).export({ format: 'jwk' }),
    );
    expect(contents.chainPem.map((pem) => new X509Certificate(pem).subject)).toEqual([new X509Certificate(ca.certPem).subject]);
    expect(contents.nif).toBe('89890001K');
    expect(contents.subject).toBe('C=ES, serialNumber=IDCES-89890001K, CN=NOMBRE APELLIDO - 89890001K');
    expect(contents.notAfter.getTime()).toBe(notAfter.getTime());
    expect(contents.notBefore.getTime()).toBeLessThan(Date.now());
  });

  it('keeps accented names intact: readable subject, and the certificate bytes are the ones in the file', () => {
    const accented = accentedCertificate();
    const contents = readPkcs12(toPkcs12(accented, 'pw'), 'pw');
    expect(contents.subject).toBe('CN=JOSÉ PEÑA - 89890001K');
    expect(contents.nif).toBe('89890001K');
    const x509 = new X509Certificate(contents.certPem);
    expect(x509.fingerprint256).toBe(new X509Certificate(accented.certPem).fingerprint256);
    expect(x509.verify(x509.publicKey)).toBe(true);
  });

  it('accepts an empty password when the file was made with one', () => {
    expect(readPkcs12(toPkcs12(holder, ''), '').nif).toBe('89890001K');
  });

  it('tells a wrong password apart from a file that is not a PKCS#12', () => {
    const p12 = toPkcs12(holder, 'right', ca);
    expect(reasonOf(() => readPkcs12(p12, 'wrong'))).toBe('bad_password');
    expect(reasonOf(() => readPkcs12(Buffer.from('-----BEGIN CERTIFICATE-----\nnot der\n'), 'x'))).toBe('unreadable');
    expect(reasonOf(() => readPkcs12(p12.subarray(0, p12.length / 2), 'right'))).toBe('unreadable');
  });

  it('refuses a PKCS#12 that carries certificates but no private key', () => {
    const certsOnly = forge.pkcs12.toPkcs12Asn1(null, [holder.cert], 'pw', { algorithm: '3des' });
    const der = Buffer.from(forge.asn1.toDer(certsOnly).getBytes(), 'binary');
    expect(reasonOf(() => readPkcs12(der, 'pw'))).toBe('no_key');
  });
});
