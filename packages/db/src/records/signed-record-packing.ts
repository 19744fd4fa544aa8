import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';

const OPEN = Buffer.from('<ds:X509Certificate>');
const CLOSE = Buffer.from('</ds:X509Certificate>');

/** A signed record's bytes as two parts: its first X509Certificate's content, and the bytes around it. */
export interface SignedRecordParts {
  /** The base64 of the certificate the record carries (null: the record carries none). */
  certificate: Buffer | null;
  /** The record's bytes with that content cut out (the element left empty). */
  rest: Buffer;
}

/**
 * Cuts the first X509Certificate's content out. Within the record's text `<` only opens markup, so the first such
 * start tag is the signature's, and joinCertificate finds it again at the same place.
 */
export function splitCertificate(xml: Buffer): SignedRecordParts {
  const start = xml.indexOf(OPEN);
  if (start < 0) return { certificate: null, rest: xml };
  const from = start + OPEN.length;
  const end = xml.indexOf(CLOSE, from);
  if (end < 0) return { certificate: null, rest: xml };
  return { certificate: xml.subarray(from, end), rest: Buffer.concat([xml.subarray(0, from), xml.subarray(end)]) };
}

/** The record's bytes from its parts: splitCertificate's inverse. */
export function joinCertificate(rest: Buffer, certificate: Buffer | null): Buffer {
  if (certificate === null) return rest;
  const at = rest.indexOf(OPEN) + OPEN.length;
  return Buffer.concat([rest.subarray(0, at), certificate, rest.subarray(at)]);
}

export function certificateDigest(certificate: Buffer): Buffer {
  return createHash('sha256').update(certificate).digest();
}

/**
 * Deflated against a dictionary of the same certificate's records: every record of one signer shares its markup, its
 * SigningCertificate and policy, most of its issuer's and system's text, so what is left is mostly the record's own
 * values, the digests and the signature value (about 0.5 KB of 6.5 KB).
 */
export function packRest(rest: Buffer, dictionary: Buffer | null): Buffer {
  return dictionary ? deflateRawSync(rest, { dictionary }) : deflateRawSync(rest);
}

export function unpackRest(packed: Buffer, dictionary: Buffer | null): Buffer {
  return dictionary ? inflateRawSync(packed, { dictionary }) : inflateRawSync(packed);
}

/** zlib reads at most the last 32 KB of a dictionary. */
export const DICTIONARY_MAX_BYTES = 32 * 1024;
