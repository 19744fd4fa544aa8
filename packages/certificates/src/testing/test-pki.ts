import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import forge from 'node-forge';
import { ORGANIZATION_IDENTIFIER_OID } from '../certificate-nif';
import { nextPooledTestKey } from './test-key-pool';

/** Throwaway test PKI. Never use these certificates outside tests and the authority simulator. */
export interface IssuedCertificate {
  certPem: string;
  keyPem: string;
  cert: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
}

export interface IssueOptions {
  commonName: string;
  /** Holder NIF, written as Spanish qualified certificates do (serialNumber / organizationIdentifier). */
  nif?: string;
  notBefore?: Date;
  notAfter?: Date;
  /** Makes it a TLS server certificate for these DNS names / IP addresses. */
  serverHosts?: string[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
// Spanish legal entities' NIFs start with one of these letters; persons' with a digit or K/L/M/X/Y/Z.
const LEGAL_ENTITY_FIRST = /^[ABCDEFGHJNPQRSUVW]/;

// Node's native generator is two orders of magnitude faster than node-forge's pure-JS one; a test run takes its keys
// from a pool generated once (test-key-pool.ts).
function generateKey(): { key: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey; keyPem: string } {
  const keyPem =
    nextPooledTestKey() ??
    generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const key = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  return { key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e), keyPem };
}

function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] &= 0x7f; // DER INTEGER must stay positive
  return bytes.toString('hex');
}

// node-forge reads valueTagClass as the ASN.1 string type (its typings call it a class).
function utf8(shortName: string, value: string): forge.pki.CertificateField {
  const tag = forge.asn1.Type.UTF8 as unknown as forge.asn1.Class;
  return { shortName, value: forge.util.encodeUtf8(value), valueTagClass: tag };
}

function subjectFor(commonName: string, nif: string | undefined): forge.pki.CertificateField[] {
  const fields: forge.pki.CertificateField[] = [{ shortName: 'C', value: 'ES' }];
  if (nif) {
    const id = nif.toUpperCase();
    if (LEGAL_ENTITY_FIRST.test(id)) {
      fields.push({ type: ORGANIZATION_IDENTIFIER_OID, value: `VATES-${id}` });
      fields.push({ name: 'serialNumber', value: `VATES-${id}` });
      fields.push(utf8('O', commonName));
    } else {
      fields.push({ name: 'serialNumber', value: `IDCES-${id}` });
    }
  }
  fields.push(utf8('CN', nif ? `${commonName} - ${nif.toUpperCase()}` : commonName));
  return fields;
}

function sign(
  subject: forge.pki.CertificateField[],
  publicKey: forge.pki.rsa.PublicKey,
  issuer: { subject: forge.pki.CertificateField[]; key: forge.pki.rsa.PrivateKey; cert?: forge.pki.Certificate },
  validity: { notBefore: Date; notAfter: Date },
  extensions: object[],
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = serialNumber();
  cert.validity.notBefore = validity.notBefore;
  cert.validity.notAfter = validity.notAfter;
  cert.setSubject(subject);
  if (issuer.cert) cert.setIssuer(issuer.cert.subject.attributes);
  else cert.setIssuer(issuer.subject);
  cert.setExtensions(extensions);
  cert.sign(issuer.key, forge.md.sha256.create());
  return cert;
}

export function createTestCa(commonName = 'VF TEST CA - NOT TRUSTED'): IssuedCertificate {
  const { key, publicKey, keyPem } = generateKey();
  const subject: forge.pki.CertificateField[] = [
    { shortName: 'C', value: 'ES' },
    utf8('O', 'VERI*FACTU service test PKI'),
    utf8('CN', commonName),
  ];
  const now = Date.now();
  const cert = sign(
    subject,
    publicKey,
    { subject, key },
    { notBefore: new Date(now - DAY_MS), notAfter: new Date(now + 10 * 365 * DAY_MS) },
    [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      { name: 'subjectKeyIdentifier' },
    ],
  );
  return { certPem: forge.pki.certificateToPem(cert), keyPem, cert, key };
}

export function issueCertificate(ca: IssuedCertificate, opts: IssueOptions): IssuedCertificate {
  const { key, publicKey, keyPem } = generateKey();
  const now = Date.now();
  const isServer = (opts.serverHosts?.length ?? 0) > 0;
  const extensions: object[] = [
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, nonRepudiation: !isServer, critical: true },
    { name: 'extKeyUsage', clientAuth: true, serverAuth: isServer },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: ca.cert.generateSubjectKeyIdentifier().getBytes() },
  ];
  if (isServer) {
    extensions.push({
      name: 'subjectAltName',
      altNames: opts.serverHosts!.map((host) => (isIP(host) ? { type: 7, ip: host } : { type: 2, value: host })),
    });
  }
  const cert = sign(
    subjectFor(opts.commonName, opts.nif),
    publicKey,
    { subject: [], key: ca.key, cert: ca.cert },
    { notBefore: opts.notBefore ?? new Date(now - DAY_MS), notAfter: opts.notAfter ?? new Date(now + 2 * 365 * DAY_MS) },
    extensions,
  );
  return { certPem: forge.pki.certificateToPem(cert), keyPem, cert, key };
}

/**
 * DER PKCS#12 (3DES, as node-forge writes it); the CA is included in the chain when given. Its key derivation runs
 * 64 iterations instead of node-forge's 2,048: reading a file costs the same work again in pure JavaScript, and
 * the tests read hundreds of them; the format and the code that reads it are the same.
 */
export function toPkcs12(cert: IssuedCertificate, password: string, ca?: IssuedCertificate): Buffer {
  const chain = ca ? [cert.cert, ca.cert] : [cert.cert];
  const asn1 = forge.pkcs12.toPkcs12Asn1(cert.key, chain, password, {
    algorithm: '3des',
    count: 64,
    friendlyName: cert.cert.subject.getField('CN')?.value,
  });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}
