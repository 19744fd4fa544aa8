export { signingIdentity, SigningKeyError, type SigningIdentity } from './signing-identity';
export { isSignatureOf, signRecord, RecordNotCanonicalError, type SignOptions } from './sign-record';
export { verifyRecordSignature, type SignatureVerdict, type Signer } from './verify-record-signature';
export { canonicalAttribute, canonicalText } from './canonical-text';
export { SIGNATURE_POLICY } from './xades-profile';
export { canonicalize } from './canonicalize';
