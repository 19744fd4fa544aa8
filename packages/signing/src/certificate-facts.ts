import { createHash, X509Certificate } from 'node:crypto';

/** What XAdES says of a certificate: its digest, issuer and serial number, and its validity. */
export interface CertificateFacts {
  /** Base64 of the DER certificate, as X509Certificate carries it. */
  base64: string;
  /** SHA-1 of the DER certificate, base64 (XAdES CertDigest, as in the authority's example). */
  sha1: string;
  /** Issuer in RFC 4514 order with lower-case attribute types, as in the authority's example. */
  issuerName: string;
  /** Serial number in decimal. */
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
}

// RFC 4514 §2.4: characters escaped with a backslash in an attribute value.
const SPECIAL = /[,+"\\<>;]/g;

/**
 * The issuer as RFC 4514 writes it: node:crypto lists the relative distinguished names from the root (`C=ES` first),
 * one a line; RFC 4514 writes them from the leaf, comma-separated.
 */
export function issuerName(cert: X509Certificate): string {
  return cert.issuer
    .split('\n')
    .filter(Boolean)
    .reverse()
    .map((rdn) => {
      const eq = rdn.indexOf('=');
      return `${rdn.slice(0, eq).toLowerCase()}=${rdn.slice(eq + 1).replace(SPECIAL, (c) => `\\${c}`)}`;
    })
    .join(',');
}

export function certificateFacts(certificate: string | X509Certificate): CertificateFacts {
  const cert = typeof certificate === 'string' ? new X509Certificate(certificate) : certificate;
  return {
    base64: cert.raw.toString('base64'),
    sha1: createHash('sha1').update(cert.raw).digest('base64'),
    issuerName: issuerName(cert),
    serialNumber: BigInt(`0x${cert.serialNumber}`).toString(10),
    notBefore: new Date(cert.validFrom),
    notAfter: new Date(cert.validTo),
  };
}
