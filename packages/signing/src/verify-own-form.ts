import { verify } from 'node:crypto';
import { certificateOf } from './known-certificates';
import { RecordNotCanonicalError, signatureFromParts, signatureOf } from './sign-record';
import type { Signer } from './verify-record-signature';

const ROOT = /^<(([A-Za-z_][\w.-]*):)?(RegistroAlta|RegistroAnulacion|RegistroEvento)((?: xmlns(?::[\w.-]+)?="[^"&<\t\n\r]*")*)>/;
const DECLARATION = / xmlns(?::([\w.-]+))?="/g;
// Inside the record: start and end tags without attributes, text in canonical form (& < > and CR escaped, no other
// reference, no control character), nothing else (no comment, CDATA, processing instruction or empty-element tag).
// eslint-disable-next-line no-control-regex -- the control characters XML 1.0 forbids in text, which a DOM parser refuses
const TOKEN = /<(\/?)(?:([A-Za-z_][\w.-]*):)?[A-Za-z_][\w.-]*>|(?:[^<>&\r\x00-\x08\x0B\x0C\x0E-\x1F]|&(?:amp|lt|gt|#xD);)+/y;

/**
 * Whether the record's bytes are well-formed Canonical XML of the simple form buildRecordXml writes: then the digest
 * of its bytes is the digest of its canonical form, which is what the full verifier computes.
 */
function isSimpleCanonicalRecord(record: string): boolean {
  const root = ROOT.exec(record);
  if (!root) return false;
  const names = [...root[4].matchAll(DECLARATION)].map((m) => m[1] ?? '');
  if (names.some((n, i) => i > 0 && names[i - 1] >= n)) return false;
  const declared = new Set(names);
  if (root[2] !== undefined && !declared.has(root[2])) return false;
  const open: string[] = [root[0].slice(1, root[0].indexOf(root[4] ? ' ' : '>'))];
  TOKEN.lastIndex = root[0].length;
  while (TOKEN.lastIndex < record.length) {
    const m = TOKEN.exec(record);
    if (!m) return false;
    if (m[0][0] !== '<') continue;
    if (m[2] !== undefined && !declared.has(m[2])) return false;
    const name = m[0].slice(m[1] ? 2 : 1, -1);
    if (!m[1]) open.push(name);
    else if (open.pop() !== name) return false;
    else if (open.length === 0 && TOKEN.lastIndex !== record.length) return false;
  }
  return open.length === 0;
}

/**
 * A valid verdict for a signed record exactly of signRecord's form, checked without parsing it into a DOM: its bytes
 * are the record (simple canonical XML) with the signature signRecord writes from the parts read out of it, so its
 * references, algorithms, policy, target and DataObjectFormat are those the full verifier accepts and its digests
 * are recomputed here; what is left is checked as the full verifier checks it (the RSA signature over SignedInfo,
 * SigningCertificate naming the certificate in KeyInfo, the signing time within its validity). Undefined for
 * anything else, valid or not: the full verifier then judges it and words each problem.
 */
export function verifyOwnForm(xml: string): { status: 'valid'; signer: Signer; signingTime: string } | undefined {
  const read = signatureOf(xml);
  if (!read) return undefined;
  const { record, value, parts } = read;
  const { certificate, signingTime, signingCertificate } = parts;
  if (!isSimpleCanonicalRecord(record)) return undefined;
  let rebuilt: ReturnType<typeof signatureFromParts>;
  try {
    rebuilt = signatureFromParts(record, parts);
  } catch (err) {
    if (err instanceof RecordNotCanonicalError) return undefined;
    throw err;
  }
  if (rebuilt.complete(value) !== xml) return undefined;
  const known = certificateOf(certificate);
  if (!known || !signingCertificate.includes(known.entry)) return undefined;
  const at = new Date(signingTime);
  if (Number.isNaN(at.getTime()) || at < known.signer.notBefore || at > known.signer.notAfter) return undefined;
  if (!verify('sha256', rebuilt.signedInfo, known.key, Buffer.from(value, 'base64'))) return undefined;
  return { status: 'valid', signer: known.signer, signingTime };
}
