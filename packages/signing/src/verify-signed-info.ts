import { verify } from 'node:crypto';
import { certificateOf } from './known-certificates';
import type { SignatureVerdict } from './verify-record-signature';

/** A signature kept as its values (decision 0064) with the SignedInfo its record's row and those values write. */
export interface SignatureFromParts {
  /** The canonical SignedInfo: it holds the digests of the record and of its signed properties. */
  signedInfo: Buffer;
  signatureValue: Buffer;
  /** X509Certificate's content (base64). */
  certificate: string;
  /** SigningCertificate's content, which must name that certificate. */
  signingCertificate: string;
  signingTime: Date;
}

/**
 * The verdict on a signature of the service's own form kept as its parts: the record and its signature are written
 * from the row and parts as they were when kept (compared byte for byte then), so what is left to check is what the
 * full verifier checks of such a record: the RSA signature over SignedInfo with the certificate, SigningCertificate
 * naming it, and the signing time within its validity. A change of the row, the signing time or the certificate
 * changes SignedInfo's digests and the signature no longer verifies.
 */
export function verifySignatureFromParts(p: SignatureFromParts): SignatureVerdict {
  const signingTime = p.signingTime.toISOString();
  const known = certificateOf(p.certificate);
  if (!known) return { status: 'invalid', problems: ['the signing certificate cannot be read'], signingTime };
  const { signer } = known;
  const problems: string[] = [];
  if (!p.signingCertificate.includes(known.entry)) problems.push('SigningCertificate does not name the certificate in KeyInfo');
  if (p.signingTime < signer.notBefore || p.signingTime > signer.notAfter)
    problems.push(`it was signed at ${signingTime}, outside its certificate's validity`);
  if (!verify('sha256', p.signedInfo, known.key, p.signatureValue))
    problems.push('the signature does not verify: the record, its signing time or its certificate changed since it was signed');
  return problems.length ? { status: 'invalid', problems, signer, signingTime } : { status: 'valid', signer, signingTime };
}
