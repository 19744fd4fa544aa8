import type { SignatureVerdict, Signer } from '@vf/signing/verify-record-signature';
import { loadOnce } from '../shared/load-once';
import type { SignerPolicy } from './signer-policy';

export interface SignatureCheck {
  status: 'valid' | 'invalid' | 'missing';
  problems: string[];
  signer?: Signer;
  signingTime?: string;
}

// The verifier (an XML parser and xml-crypto's canonicalisation) loads with the first signature checked: a process
// that only registers never holds it.
const verifier = loadOnce(async () => (await import('@vf/signing/verify-record-signature')).verifyRecordSignature);

// The record's own Huella is its last element before the signature (SuministroInformacion.xsd's sequence).
const OWN_HUELLA = /<(?:[\w.-]+:)?Huella>([^<]*)<\/(?:[\w.-]+:)?Huella><(?:[\w.-]+:)?Signature[\s>]/;

/**
 * A stored record's signature: valid when it verifies (@vf/signing: cryptography and XAdES), signs this record (its
 * huella is the row's) and was made with a certificate the record may be signed with (signer-policy.ts).
 */
export async function checkSignature(
  signedXml: string | null,
  record: { issuerNif: string; hash: string },
  signers: SignerPolicy,
): Promise<SignatureCheck> {
  if (signedXml === null) return { status: 'missing', problems: [] };
  return judgeSignature((await verifier())(signedXml), signedHuellaOf(signedXml), record, signers);
}

/** The huella a signed record carries (its own, the last element before its signature). */
export function signedHuellaOf(signedXml: string): string | undefined {
  return OWN_HUELLA.exec(signedXml)?.[1];
}

/**
 * checkSignature for a verdict already reached (a chain's signatures are verified apart), given the huella the signed
 * record carries; no verdict: the record has no signed record.
 */
export async function judgeSignature(
  verdict: SignatureVerdict | undefined,
  signedHuella: string | undefined,
  record: { issuerNif: string; hash: string },
  signers: SignerPolicy,
): Promise<SignatureCheck> {
  if (verdict === undefined) return { status: 'missing', problems: [] };
  if (verdict.status === 'missing') return { status: 'invalid', problems: ['the stored signed record carries no signature'] };
  const problems = verdict.status === 'invalid' ? [...verdict.problems] : [];
  if (signedHuella !== record.hash)
    problems.push(`the signed record has the huella ${signedHuella ?? '(none)'}, not the record's ${record.hash}`);
  const { signer, signingTime } = verdict;
  const foreign = signer && (await signers.problem(signer.certificatePem, signer.subject, record.issuerNif));
  if (foreign) problems.push(foreign);
  return {
    status: problems.length ? 'invalid' : 'valid',
    problems,
    ...(signer ? { signer } : {}),
    ...(signingTime ? { signingTime } : {}),
  };
}

/** The JSON form of a check, as the API answers it. */
export function renderSignatureCheck(c: SignatureCheck) {
  return {
    status: c.status,
    problems: c.problems,
    signing_time: c.signingTime ?? null,
    signer: c.signer
      ? {
          subject: c.signer.subject,
          issuer: c.signer.issuer,
          serial_number: c.signer.serialNumber,
          not_before: c.signer.notBefore.toISOString(),
          not_after: c.signer.notAfter.toISOString(),
        }
      : null,
  };
}
