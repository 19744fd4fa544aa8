import { X509Certificate, type KeyObject } from 'node:crypto';
import { certificateFacts } from './certificate-facts';
import { certEntry } from './sign-record';
import type { Signer } from './verify-record-signature';

export interface KnownCertificate {
  signer: Signer;
  key: KeyObject;
  entry: string;
}

// A chain's records are signed by one or a few certificates: each is read once, not once a record.
const known = new Map<string, KnownCertificate | null>();
const KNOWN_MAX = 256;

/** The certificate of this base64 (an X509Certificate's content), read once; null when it cannot be read. */
export function certificateOf(base64: string): KnownCertificate | null {
  let found = known.get(base64);
  if (found !== undefined) return found;
  try {
    const pem = `-----BEGIN CERTIFICATE-----\n${base64.replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;
    const cert = new X509Certificate(pem);
    const facts = certificateFacts(cert);
    found = {
      signer: {
        certificatePem: pem,
        subject: cert.subject.split('\n').join(', '),
        issuer: facts.issuerName,
        serialNumber: facts.serialNumber,
        notBefore: facts.notBefore,
        notAfter: facts.notAfter,
      },
      key: cert.publicKey,
      entry: certEntry(facts),
    };
  } catch {
    found = null;
  }
  if (known.size >= KNOWN_MAX) known.clear();
  known.set(base64, found);
  return found;
}
