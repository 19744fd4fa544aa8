// A thread of the signature pool (src/signature-pool.ts): verifies signed records with the compiled verifier, so a
// long chain's signatures are checked on every core while the event loop goes on reading the chain.
const workerpool = require('workerpool');
const { verifyRecordSignature } = require('../dist/verify-record-signature.js');

workerpool.worker({
  verify: (xmls) => xmls.map((xml) => (xml === null ? undefined : verifyRecordSignature(xml))),
});
