import type { SignatureParts } from './sign-record';

const SIGNATURE_START = '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#" Id="';
const SIGNATURE_END = '</ds:Signature>';
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
