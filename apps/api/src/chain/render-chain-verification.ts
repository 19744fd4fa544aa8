import type { ChainBreak, ChainVerification } from '@vf/contract';

const renderBreak = (b: ChainBreak) => ({
  position: b.position,
  record_id: b.invoiceId || null,
  invoice_number: b.invoiceNumber,
  problem: b.problem,
});

/** The JSON form of a chain verification, as GET /chain/{nif}/verification answers it. */
export function renderChainVerification(v: ChainVerification) {
  return {
    valid: v.ok,
    from: v.from,
    verified: v.verified,
    broken_link: v.break ? renderBreak(v.break) : null,
    signatures: v.signatures,
    invalid_signatures: v.invalidSignatures.map(renderBreak),
  };
}
