import { X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { certificateNif } from './certificate-nif';
import { CertificateError } from './certificate-error';

export interface Pkcs12Contents {
  /** The holder's certificate: the one whose public key matches the private key. */
  certPem: string;
  keyPem: string;
  /** The other certificates in the file (intermediates, CA), in file order. */
  chainPem: string[];
  /** Distinguished name, e.g. "C=ES, serialNumber=IDCES-89890001K, CN=NOMBRE APELLIDO - 89890001K". */
  subject: string;
  nif?: string;
  notBefore: Date;
  notAfter: Date;
}

// node-forge reports a wrong password through these messages (MAC check, encrypted bags, shrouded key).
const WRONG_PASSWORD = /invalid password|wrong password|failed to decrypt/i;

function open(p12: Buffer, password: string): forge.pkcs12.Pkcs12Pfx {
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary')));
  } catch (err) {
    throw new CertificateError('unreadable', 'the file is not a DER-encoded PKCS#12', { cause: err });
  }
  try {
    return forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (WRONG_PASSWORD.test(message)) throw new CertificateError('bad_password', 'the PKCS#12 password is wrong', { cause: err });
    throw new CertificateError('unreadable', `the PKCS#12 cannot be read: ${message}`, { cause: err });
  }
}

function bagsOf(pfx: forge.pkcs12.Pkcs12Pfx, bagType: string): forge.pkcs12.Bag[] {
  return pfx.getBags({ bagType })[bagType] ?? [];
}

function sameKey(cert: forge.pki.Certificate, key: forge.pki.rsa.PrivateKey): boolean {
  const pub = cert.publicKey as forge.pki.rsa.PublicKey;
  return Boolean(pub.n && pub.e) && pub.n.equals(key.n) && pub.e.equals(key.e);
}

/** Opens a PKCS#12 and returns what mutual TLS needs plus the facts shown to the user. */
export function readPkcs12(p12: Buffer, password: string): Pkcs12Contents {
  const pfx = open(p12, password);
  const keyBags = [...bagsOf(pfx, forge.pki.oids.pkcs8ShroudedKeyBag), ...bagsOf(pfx, forge.pki.oids.keyBag)];
  if (keyBags.length === 0) throw new CertificateError('no_key', 'the PKCS#12 holds no private key');
  const key = keyBags.find((bag) => bag.key)?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key) throw new CertificateError('unreadable', 'the private key is of an unsupported type (RSA keys only)');

  const certs = bagsOf(pfx, forge.pki.oids.certBag)
    .map((bag) => bag.cert)
    .filter((cert): cert is forge.pki.Certificate => Boolean(cert));
  const holder = certs.find((cert) => sameKey(cert, key));
  if (!holder) throw new CertificateError('no_key', 'no certificate in the PKCS#12 matches its private key');

  const certPem = forge.pki.certificateToPem(holder);
  return {
    certPem,
    keyPem: forge.pki.privateKeyToPem(key),
    chainPem: certs.filter((cert) => cert !== holder).map((cert) => forge.pki.certificateToPem(cert)),
    // Node decodes UTF8String attributes (accented names) that node-forge leaves as raw bytes.
    subject: new X509Certificate(certPem).subject.split('\n').join(', '),
    nif: certificateNif(holder),
    notBefore: holder.validity.notBefore,
    notAfter: holder.validity.notAfter,
  };
}
