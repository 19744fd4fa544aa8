import type { KeyObject } from 'node:crypto';
import { certificateOf } from './known-certificates';
import { xadesProblems } from './xades-checks';
import { childElements, MalformedXmlError, onlyChild, parseDocument } from './xml-dom';
import { signedInfoProblems } from './signed-info';
import { DSIG_NS, XADES_NS } from './xades-profile';
import { verifyOwnForm } from './verify-own-form';

/** The certificate a record was signed with, as its KeyInfo carries it. */
export interface Signer {
  certificatePem: string;
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: Date;
  notAfter: Date;
}

export type SignatureVerdict =
  | { status: 'missing' }
  | { status: 'valid'; signer: Signer; signingTime: string }
  | { status: 'invalid'; problems: string[]; signer?: Signer; signingTime?: string };

/** The records a signature may sign (AEAT's signature specification §5): never the message around them. */
const SIGNED_ELEMENTS = new Set(['RegistroAlta', 'RegistroAnulacion', 'RegistroEvento']);

function signerOf(signature: Element): { signer: Signer; key: KeyObject } | undefined {
  const base64 = onlyChild(
    onlyChild(onlyChild(signature, DSIG_NS, 'KeyInfo'), DSIG_NS, 'X509Data'),
    DSIG_NS,
    'X509Certificate',
  )?.textContent?.replace(/\s+/g, '');
  if (!base64) return undefined;
  const known = certificateOf(base64);
  return known ? { signer: known.signer, key: known.key } : undefined;
}

/**
 * Verifies a signed record (a standalone document, as stored and sent): the signature is the record's last child;
 * its cryptography (signed-info.ts: both references' digests over xml-crypto's canonical forms, and the RSA
 * signature over SignedInfo with the certificate in KeyInfo); its references point at the record and at its own
 * SignedProperties; and the XAdES properties hold (xades-checks.ts). Whose certificate it is, the caller judges.
 * A record of the form the workers sign is verified without a DOM (verify-own-form.ts), about ten times faster.
 */
export function verifyRecordSignature(xml: string): SignatureVerdict {
  try {
    return verifyOwnForm(xml) ?? verifyParsed(xml);
  } catch (err) {
    // Whatever a stored or received document holds, the answer is a verdict, never a crash.
    return { status: 'invalid', problems: [`the signature could not be checked: ${err instanceof Error ? err.message : String(err)}`] };
  }
}

/** The full verification: the record parsed, every reference followed and canonicalised, each problem worded. */
export function verifyParsed(xml: string): SignatureVerdict {
  let doc: Document;
  try {
    doc = parseDocument(xml);
  } catch (err) {
    if (!(err instanceof MalformedXmlError)) throw err;
    return { status: 'invalid', problems: [`the record is not well-formed XML: ${err.message}`] };
  }
  const root = doc.documentElement;
  const signatures = Array.from(doc.getElementsByTagNameNS(DSIG_NS, 'Signature'));
  if (signatures.length === 0) return { status: 'missing' };
  const signature = signatures[0];
  const problems: string[] = [];
  if (!SIGNED_ELEMENTS.has(root.localName)) problems.push(`the signed element is ${root.localName}, not a record`);
  if (signatures.length > 1) problems.push('the record carries more than one signature');
  // An event's signature is the last child of its Evento (EventosSIF.xsd); a record's, of the record itself.
  const holder = root.localName === 'RegistroEvento' ? childElements(root).find((e) => e.localName === 'Evento') : root;
  if (!holder || signature.parentNode !== holder || childElements(holder).at(-1) !== signature)
    problems.push(`the signature is not the last child of the ${root.localName === 'RegistroEvento' ? 'event' : 'record'}`);

  const { signer, key } = signerOf(signature) ?? {};
  if (!signer) problems.push('the signature carries no readable X509Certificate in KeyInfo');
  const signedProperties = onlyChild(
    onlyChild(onlyChild(signature, DSIG_NS, 'Object'), XADES_NS, 'QualifyingProperties'),
    XADES_NS,
    'SignedProperties',
  );
  problems.push(...signedInfoProblems(doc, signature, signedProperties, key));
  const xades = xadesProblems(signature, signedProperties, signer);
  problems.push(...xades.problems);

  const facts = { ...(signer ? { signer } : {}), ...(xades.signingTime ? { signingTime: xades.signingTime } : {}) };
  if (problems.length === 0 && signer && xades.signingTime) return { status: 'valid', signer, signingTime: xades.signingTime };
  return { status: 'invalid', problems, ...facts };
}
