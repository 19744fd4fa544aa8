/** One stored record of a taxpayer's chain, with the values exactly as stored (amounts "12.10", dates YYYY-MM-DD). */
export interface ChainRecord {
  id: string;
  chainSeq: number;
  recordType: string;
  issuerNif: string;
  invoiceNumber: string;
  invoiceDate: string;
  invoiceType: string;
  totalAmount: string;
  totalTaxAmount: string;
  generatedAt: Date;
  generatedAtLiteral: string;
  previousInvoiceId: string | null;
  previousHash: string | null;
  hash: string;
  /** The record as it was signed and sent; null when it went unsigned (or was never sent). */
  signedXml?: string | null;
}

/** The first link that does not hold: where it is and what is wrong, in words. */
export interface ChainBreak {
  /** 1-based position in the chain as walked. */
  position: number;
  invoiceId: string;
  invoiceNumber: string;
  problem: string;
}

export interface ChainVerification {
  /** Every huella recomputes, every link holds and no signature is invalid. */
  ok: boolean;
  /** The first position checked (1 for the whole chain). */
  from: number;
  /** Records checked whose huella and link hold, up to the first break. */
  verified: number;
  /** The first link that does not hold; the walk stops there. */
  break?: ChainBreak;
  /** The signatures of the records walked; a missing one (a record sent unsigned) is no fault. */
  signatures: { valid: number; invalid: number; missing: number };
  /** The first records whose signature is invalid (at most MAX_LISTED), with why. */
  invalidSignatures: ChainBreak[];
}
