// Signing needs only Node's crypto. Verifying a signature parses the record (xmldom, xml-crypto's canonicalisation:
// about 2 MB of a process's heap), so it is a subpath of its own, '@vf/signing/verify-record-signature', which a
// process that only signs, the worker, never loads.
export { signingIdentity, type SigningIdentity } from './signing-identity';
export {
  isSignatureOf,
  signatureFromParts,
  signatureOf,
  signRecord,
  signRecordAsync,
  type SignatureOf,
  type SignatureParts,
  type SignOptions,
} from './sign-record';
export { canonicalAttribute, canonicalText } from './canonical-text';
