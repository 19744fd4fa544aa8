import { createHash } from 'node:crypto';
import type { Signer } from './verify-record-signature';
import { childrenNamed, onlyChild, textOf } from './xml-dom';
import { DIGESTS, DSIG_NS, SIGNATURE_POLICY, XADES_NS } from './xades-profile';

/** An RFC 4514 (or X.500-ordered) name as a comparable set: attribute types lower-cased, values as written. */
function nameParts(name: string): string[] {
  return name
    .split(/(?<!\\),/)
    .map((rdn) => {
      const eq = rdn.indexOf('=');
      return `${rdn.slice(0, eq).trim().toLowerCase()}=${rdn.slice(eq + 1).trim()}`;
    })
    .sort();
}

function sameName(a: string, b: string): boolean {
  return nameParts(a).join('\n') === nameParts(b).join('\n');
}

function digestOf(method: Element | undefined, der: Buffer): string | undefined {
  const algorithm = DIGESTS[method?.getAttribute('Algorithm') ?? ''];
  return algorithm ? createHash(algorithm).update(der).digest('base64') : undefined;
}

/** SigningCertificate must name the certificate in KeyInfo: its digest, issuer and serial number (XAdES §7.2.2). */
function signingCertificateProblems(properties: Element | undefined, signer: Signer): string[] {
  const certs = childrenNamed(onlyChild(properties, XADES_NS, 'SigningCertificate'), XADES_NS, 'Cert');
  if (certs.length === 0) return ['SigningCertificate is missing'];
  const der = Buffer.from(signer.certificatePem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  const entry = certs.find((cert) => {
    const certDigest = onlyChild(cert, XADES_NS, 'CertDigest');
    return textOf(onlyChild(certDigest, DSIG_NS, 'DigestValue')) === digestOf(onlyChild(certDigest, DSIG_NS, 'DigestMethod'), der);
  });
  if (!entry) return ['SigningCertificate does not name the certificate in KeyInfo (no CertDigest matches it)'];
  const issuerSerial = onlyChild(entry, XADES_NS, 'IssuerSerial');
  const problems: string[] = [];
  if (textOf(onlyChild(issuerSerial, DSIG_NS, 'X509SerialNumber')) !== signer.serialNumber)
    problems.push("SigningCertificate's serial number is not the certificate's");
  const issuer = textOf(onlyChild(issuerSerial, DSIG_NS, 'X509IssuerName'));
  if (!issuer || !sameName(issuer, signer.issuer)) problems.push("SigningCertificate's issuer is not the certificate's");
  return problems;
}

/** The AGE policy with its hash (AEAT's signature specification §4). */
function policyProblems(properties: Element | undefined): string[] {
  const policy = onlyChild(onlyChild(properties, XADES_NS, 'SignaturePolicyIdentifier'), XADES_NS, 'SignaturePolicyId');
  if (!policy) return ['the signature policy (SignaturePolicyIdentifier) is missing: not XAdES-EPES'];
  const problems: string[] = [];
  const identifier = textOf(onlyChild(onlyChild(policy, XADES_NS, 'SigPolicyId'), XADES_NS, 'Identifier'));
  if (identifier !== SIGNATURE_POLICY.identifier)
    problems.push(`the signature policy is ${identifier ?? '(none)'}, not the AGE policy ${SIGNATURE_POLICY.identifier}`);
  const hash = onlyChild(policy, XADES_NS, 'SigPolicyHash');
  if (
    onlyChild(hash, DSIG_NS, 'DigestMethod')?.getAttribute('Algorithm') !== SIGNATURE_POLICY.hashAlgorithm ||
    textOf(onlyChild(hash, DSIG_NS, 'DigestValue')) !== SIGNATURE_POLICY.hash
  )
    problems.push(`the signature policy's hash is not the AGE policy's (SHA-1 ${SIGNATURE_POLICY.hash})`);
  return problems;
}

/**
 * The XAdES checks no XML-signature library makes: the properties belong to this signature, SigningCertificate
 * names the certificate used, the policy is the AGE's with its hash, the signing time lies within the
 * certificate's validity, and DataObjectFormat describes the record reference.
 */
export function xadesProblems(
  signature: Element,
  signedProperties: Element | undefined,
  signer: Signer | undefined,
): { problems: string[]; signingTime?: string } {
  if (!signedProperties) return { problems: ['the XAdES SignedProperties are missing'] };
  const problems: string[] = [];
  const qualifying = signedProperties.parentNode as Element;
  if (qualifying.getAttribute('Target') !== `#${signature.getAttribute('Id') ?? ''}`)
    problems.push('the XAdES properties do not target this signature');
  const properties = onlyChild(signedProperties, XADES_NS, 'SignedSignatureProperties');
  const signingTime = textOf(onlyChild(properties, XADES_NS, 'SigningTime'));
  const at = signingTime ? new Date(signingTime) : undefined;
  if (!at || Number.isNaN(at.getTime())) problems.push('SigningTime is missing or not a date-time');
  if (signer) {
    problems.push(...signingCertificateProblems(properties, signer));
    if (at && (at < signer.notBefore || at > signer.notAfter))
      problems.push(
        `it was signed at ${signingTime}, outside the certificate's validity (${signer.notBefore.toISOString()} to ${signer.notAfter.toISOString()})`,
      );
  }
  problems.push(...policyProblems(properties));
  const recordReference = childrenNamed(onlyChild(signature, DSIG_NS, 'SignedInfo'), DSIG_NS, 'Reference').find(
    (r) => r.getAttribute('URI') === '',
  );
  const format = onlyChild(onlyChild(signedProperties, XADES_NS, 'SignedDataObjectProperties'), XADES_NS, 'DataObjectFormat');
  const recordReferenceId = recordReference?.getAttribute('Id');
  if (!format || !recordReferenceId || format.getAttribute('ObjectReference') !== `#${recordReferenceId}`)
    problems.push('DataObjectFormat does not describe the record reference');
  return { problems, ...(signingTime ? { signingTime } : {}) };
}
