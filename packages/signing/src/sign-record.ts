import { createHash, randomUUID, sign } from 'node:crypto';
import type { CertificateFacts } from './certificate-facts';
import { canonicalAttribute, canonicalText } from './canonical-text';
import type { SigningIdentity } from './signing-identity';
import {
  C14N_10,
  DATA_OBJECT_FORMAT,
  DSIG_NS,
  ENVELOPED_SIGNATURE,
  RSA_SHA256,
  SHA1,
  SHA256,
  SIGNATURE_POLICY,
  SIGNED_PROPERTIES_TYPE,
  XADES_NS,
} from './xades-profile';

export interface SignOptions {
  /** SigningTime. */
  at: Date;
  /** The Signature's Id (its parts' Ids derive from it); a random `xmldsig-<uuid>` when absent. */
  id?: string;
  /**
   * The qualified name of the element the signature is the last child of, when not the root: an event's signature
   * goes in its `Evento` (EventosSIF.xsd), still over the whole RegistroEvento (URI="").
   */
  within?: string;
}

export class RecordNotCanonicalError extends Error {}

// The root's start tag and end tag of a canonical record: `<sum1:RegistroAlta xmlns:sum1="…">` … `</sum1:RegistroAlta>`.
const ROOT = /^<([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)((?: [^\s=]+="[^"]*")*)>/;
const NAMESPACE_DECLARATION = / (xmlns(?::[\w.-]+)?)="([^"]*)"/g;

const el = (name: string, content: string, attributes = '') => `<${name}${attributes}>${content}</${name}>`;
const algorithm = (name: string, uri: string) => el(name, '', ` Algorithm="${uri}"`);

/** SigningCertificate's entry for one certificate, as signRecord writes it. */
export function certEntry(cert: CertificateFacts): string {
  return el(
    'xades:Cert',
    el('xades:CertDigest', algorithm('ds:DigestMethod', SHA1) + el('ds:DigestValue', cert.sha1)) +
      el('xades:IssuerSerial', el('ds:X509IssuerName', canonicalText(cert.issuerName)) + el('ds:X509SerialNumber', cert.serialNumber)),
  );
}

/** SigningCertificate's content, the same for every record signed with one identity: written once for it. */
const signingCertificates = new WeakMap<SigningIdentity, string>();

function signingCertificate(identity: SigningIdentity): string {
  let written = signingCertificates.get(identity);
  if (written === undefined) {
    written = identity.chain.map(certEntry).join('');
    signingCertificates.set(identity, written);
  }
  return written;
}

// SignaturePolicyIdentifier's content, the same for every record.
const POLICY = el(
  'xades:SignaturePolicyId',
  el('xades:SigPolicyId', el('xades:Identifier', SIGNATURE_POLICY.identifier)) +
    el('xades:SigPolicyHash', algorithm('ds:DigestMethod', SIGNATURE_POLICY.hashAlgorithm) + el('ds:DigestValue', SIGNATURE_POLICY.hash)) +
    el('xades:SigPolicyQualifiers', el('xades:SigPolicyQualifier', el('xades:SPURI', SIGNATURE_POLICY.url))),
);

function digest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

/**
 * Signs one record as AEAT's specification and example have it (XAdES-EPES enveloped, the AGE policy; see
 * docs/decisions/0013-records-signed-by-the-workers.md) and returns the signed record: `record` with the
 * `ds:Signature` as its last child.
 *
 * `record` must be the record as a standalone document in Canonical XML 1.0 (no XML declaration, the root declaring
 * its namespaces, nothing re-escaped), which is what @vf/xml's buildRecordXml writes. Then no canonicalisation is
 * needed: the enveloped reference digests the record's bytes as they are, and the signature itself is written in
 * canonical form, so SignedInfo and SignedProperties are digested as written, with the namespace declarations in
 * scope that inclusive C14N puts on them. The tests prove both with xml-crypto's and xmlsec1's canonicalisation.
 */
export function signRecord(record: string, identity: SigningIdentity, options: SignOptions): string {
  const prepared = prepareSignature(record, identity, options);
  return prepared.complete(sign('sha256', prepared.signedInfo, identity.privateKey));
}

/**
 * signRecord with the RSA operation, nearly all of a signature's cost, done on libuv's thread pool: the same bytes,
 * while the calling thread goes on (a worker prepares the next records meanwhile, and on a machine with more than one
 * core several signatures are computed at once). Callers bound how many they start at a time.
 */
export async function signRecordAsync(record: string, identity: SigningIdentity, options: SignOptions): Promise<string> {
  const prepared = prepareSignature(record, identity, options);
  const value = await new Promise<Buffer>((resolve, reject) =>
    sign('sha256', prepared.signedInfo, identity.privateKey, (err, signature) => (err ? reject(err) : resolve(signature))),
  );
  return prepared.complete(value);
}

interface PreparedSignature {
  /** The canonical SignedInfo, the bytes the RSA signature is computed over. */
  signedInfo: Buffer;
  /** The signed record, given the signature value. */
  complete(signatureValue: Buffer): string;
}

function prepareSignature(record: string, identity: SigningIdentity, options: SignOptions): PreparedSignature {
  const parts = {
    id: options.id ?? `xmldsig-${randomUUID()}`,
    signingTime: options.at.toISOString(),
    signingCertificate: signingCertificate(identity),
    certificate: identity.certificate.base64,
  };
  const prepared = signatureFromParts(record, parts, options.within);
  return { signedInfo: prepared.signedInfo, complete: (value) => prepared.complete(value.toString('base64')) };
}

/** What a signature of signRecord's form holds besides the record and the signature value. */
export interface SignatureParts {
  /** The Signature's Id. */
  id: string;
  /** SigningTime's text. */
  signingTime: string;
  /** SigningCertificate's content. */
  signingCertificate: string;
  /** X509Certificate's content. */
  certificate: string;
}

/**
 * The signature signRecord writes, from its parts: the canonical SignedInfo (digests computed here, over the record's
 * bytes and the SignedProperties written from the parts) and the signed record given the signature value (base64).
 * Also how a stored record is recognised as being of this form (verify-own-form.ts).
 */
export function signatureFromParts(
  record: string,
  parts: SignatureParts,
  within?: string,
): { signedInfo: Buffer; complete(signatureValue: string): string } {
  const root = ROOT.exec(record);
  const closing = root ? `</${root[1]}>` : '';
  if (!root || !record.endsWith(closing)) throw new RecordNotCanonicalError('the record is not a standalone element in canonical form');
  const at = within ? record.lastIndexOf(`</${within}>`) : record.length - closing.length;
  if (at < 0) throw new RecordNotCanonicalError(`the record has no ${within} to hold its signature`);
  const inScope = new Map<string, string>([...root[2].matchAll(NAMESPACE_DECLARATION)].map((m) => [m[1], m[2]]));
  inScope.set('xmlns:ds', DSIG_NS);
  const declarations = (extra: [string, string][] = []) =>
    [...inScope, ...extra]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, uri]) => ` ${name}="${canonicalAttribute(uri)}"`)
      .join('');

  const { id } = parts;
  const ref0 = `${id}-ref0`;
  const propsId = `${id}-signedprops`;
  const signedProperties =
    el(
      'xades:SignedSignatureProperties',
      el('xades:SigningTime', parts.signingTime) +
        el('xades:SigningCertificate', parts.signingCertificate) +
        el('xades:SignaturePolicyIdentifier', POLICY),
    ) +
    el(
      'xades:SignedDataObjectProperties',
      el(
        'xades:DataObjectFormat',
        el('xades:ObjectIdentifier', el('xades:Identifier', DATA_OBJECT_FORMAT.identifier)) +
          el('xades:MimeType', DATA_OBJECT_FORMAT.mimeType) +
          el('xades:Encoding', DATA_OBJECT_FORMAT.encoding),
        ` ObjectReference="#${canonicalAttribute(ref0)}"`,
      ),
    );
  const propsAttributes = ` Id="${canonicalAttribute(propsId)}"`;
  const propsDigest = digest(el('xades:SignedProperties', signedProperties, declarations([['xmlns:xades', XADES_NS]]) + propsAttributes));

  const signedInfo =
    algorithm('ds:CanonicalizationMethod', C14N_10) +
    algorithm('ds:SignatureMethod', RSA_SHA256) +
    el(
      'ds:Reference',
      el('ds:Transforms', algorithm('ds:Transform', ENVELOPED_SIGNATURE)) +
        algorithm('ds:DigestMethod', SHA256) +
        el('ds:DigestValue', digest(record)),
      ` Id="${canonicalAttribute(ref0)}" URI=""`,
    ) +
    el(
      'ds:Reference',
      el('ds:Transforms', algorithm('ds:Transform', C14N_10)) + algorithm('ds:DigestMethod', SHA256) + el('ds:DigestValue', propsDigest),
      ` Type="${SIGNED_PROPERTIES_TYPE}" URI="#${canonicalAttribute(propsId)}"`,
    );
  const signedInfoBytes = Buffer.from(el('ds:SignedInfo', signedInfo, declarations()), 'utf8');
  const complete = (signatureValue: string) => {
    const signature = el(
      'ds:Signature',
      el('ds:SignedInfo', signedInfo) +
        el('ds:SignatureValue', signatureValue, ` Id="${canonicalAttribute(`${id}-sigvalue`)}"`) +
        el('ds:KeyInfo', el('ds:X509Data', el('ds:X509Certificate', parts.certificate))) +
        el(
          'ds:Object',
          el(
            'xades:QualifyingProperties',
            el('xades:SignedProperties', signedProperties, propsAttributes),
            ` xmlns:xades="${XADES_NS}" Target="#${canonicalAttribute(id)}"`,
          ),
        ),
      ` xmlns:ds="${DSIG_NS}" Id="${canonicalAttribute(id)}"`,
    );
    return record.slice(0, at) + signature + record.slice(at);
  };
  return { signedInfo: signedInfoBytes, complete };
}

const SIGNATURE_END = '</ds:Signature>';

/**
 * Whether `signed` is `record` signed by signRecord: the record's bytes with a signature inserted as the last child of
 * an element (the root, or an event's Evento), nothing else changed. How a stored signature is tied to the record
 * rebuilt from the database.
 */
export function isSignatureOf(signed: string, record: string): boolean {
  const start = signed.indexOf('<ds:Signature ');
  const end = signed.lastIndexOf(SIGNATURE_END);
  if (start <= 0 || end < start || signed.length - record.length !== end + SIGNATURE_END.length - start) return false;
  return (
    record.startsWith(signed.slice(0, start)) && record.endsWith(signed.slice(end + SIGNATURE_END.length)) && record.startsWith('</', start)
  );
}

const SIGNATURE_START = '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#" Id="';
const FIELD = (name: string) => new RegExp(`<${name}(?: Id="[^"]*")?>([^<]*)</${name}>`);
const SIGNATURE_VALUE = FIELD('ds:SignatureValue');
const CERTIFICATE = FIELD('ds:X509Certificate');
const SIGNING_TIME = FIELD('xades:SigningTime');
const SIGNING_CERTIFICATE = /<xades:SigningCertificate>(.*?)<\/xades:SigningCertificate>/;

/** A signed record read as signRecord writes it: the record without its signature, the signature's parts and value. */
export interface SignatureOf {
  /** The record's bytes without the signature. */
  record: string;
  parts: SignatureParts;
  /** SignatureValue's text (base64). */
  value: string;
}

/**
 * The parts of the last signature of signRecord's start in `signed`, or undefined when it has none of that form. Only
 * read out, not checked: whether they write the same bytes again is the caller's to compare (signatureFromParts).
 */
export function signatureOf(signed: string): SignatureOf | undefined {
  const start = signed.lastIndexOf(SIGNATURE_START);
  const end = signed.indexOf(SIGNATURE_END, start) + SIGNATURE_END.length;
  if (start < 0 || end < SIGNATURE_END.length) return undefined;
  const signature = signed.slice(start, end);
  const id = signature.slice(SIGNATURE_START.length, signature.indexOf('"', SIGNATURE_START.length));
  const value = SIGNATURE_VALUE.exec(signature)?.[1];
  const certificate = CERTIFICATE.exec(signature)?.[1];
  const signingTime = SIGNING_TIME.exec(signature)?.[1];
  const signingCertificate = SIGNING_CERTIFICATE.exec(signature)?.[1];
  if (value === undefined || certificate === undefined || signingTime === undefined || signingCertificate === undefined) return undefined;
  return { record: signed.slice(0, start) + signed.slice(end), parts: { id, signingTime, signingCertificate, certificate }, value };
}
