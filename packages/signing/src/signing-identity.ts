import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { certificateFacts, type CertificateFacts } from './certificate-facts';

/** The key and certificates a record is signed with, prepared once per certificate so that each signature costs little. */
export interface SigningIdentity {
  privateKey: KeyObject;
  certificate: CertificateFacts;
  /** The certificate, then the rest of the chain the PKCS#12 holds: each listed in SigningCertificate. */
  chain: CertificateFacts[];
}

/** AEAT's signature specification §4: RSA keys of at least 1024 bits. */
const MIN_RSA_BITS = 1024;

export class SigningKeyError extends Error {}

/** From the PEMs of a PKCS#12 (see readPkcs12 of @vf/certificates): RSA keys only, as the specification asks. */
export function signingIdentity(pems: { keyPem: string; certPem: string; chainPem?: string[] }): SigningIdentity {
  const privateKey = createPrivateKey(pems.keyPem);
  if (privateKey.asymmetricKeyType !== 'rsa')
    throw new SigningKeyError(`records are signed with RSA keys, not ${privateKey.asymmetricKeyType}`);
  const bits = privateKey.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) throw new SigningKeyError(`the RSA key has ${bits} bits; the specification asks for at least ${MIN_RSA_BITS}`);
  if (!new X509Certificate(pems.certPem).checkPrivateKey(privateKey)) {
    throw new SigningKeyError('the private key does not belong to the certificate');
  }
  const certificate = certificateFacts(pems.certPem);
  return { privateKey, certificate, chain: [certificate, ...(pems.chainPem ?? []).map(certificateFacts)] };
}
