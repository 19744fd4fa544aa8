export { signingIdentity, type SigningIdentity } from './signing-identity';
export { isSignatureOf, signRecord, signRecordAsync, type SignOptions } from './sign-record';
export { verifyRecordSignature, type SignatureVerdict, type Signer } from './verify-record-signature';
export { canonicalAttribute, canonicalText } from './canonical-text';
export { canonicalize } from './canonicalize';
