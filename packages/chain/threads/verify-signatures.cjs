// A thread of the signature pool (src/verification/signature-pool.ts): verifies a chain's signed records with the
// compiled verifiers, so a long chain's signatures are checked on every core while the event loop reads the chain.
const { Buffer } = require('node:buffer');
const workerpool = require('workerpool');
const { verifyRecordSignature } = require('@vf/signing/verify-record-signature');
const { verifySignatureFromParts } = require('@vf/signing/verify-signed-info');
const { signedRecordForms } = require('../dist/records/chain-record-row.js');

workerpool.worker({
  /** Signed texts (null: none). */
  verify: (xmls) => xmls.map((xml) => (xml === null ? undefined : verifyRecordSignature(xml))),
  /**
   * Signatures kept as parts (a KeptSlice of src/verification/signature-pool.ts): each record's SignedInfo written
   * from its row, parts and signer's certificate, then the RSA check.
   */
  verifyParts: ({ signers, items }) =>
    items.map(({ form, row, parts, signer }) => {
      try {
        // Buffers cross the thread as plain byte arrays: viewed as a Buffer again, not copied.
        const value = parts.signatureValue;
        const whole = { ...parts, ...signers[signer], signatureValue: Buffer.from(value.buffer, value.byteOffset, value.byteLength) };
        const signedInfo = signedRecordForms.signedInfo(form, row, whole);
        return verifySignatureFromParts({ ...whole, signedInfo });
      } catch (err) {
        return { status: 'invalid', problems: [`the signature could not be checked: ${err instanceof Error ? err.message : String(err)}`] };
      }
    }),
});
