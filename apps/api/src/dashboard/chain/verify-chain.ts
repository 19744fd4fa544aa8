import { computeRegistrationHash, toAeatDate } from '@vf/core';

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
}

/** The first link that does not hold: where it is and what is wrong, in words. */
export interface ChainBreak {
  /** 1-based position in the chain as walked. */
  position: number;
  invoiceId: string;
  invoiceNumber: string;
  problem: string;
}

export type ChainVerification = { ok: true; verified: number } | { ok: false; verified: number; break: ChainBreak };

/**
 * Checks record `position` against the record before it (undefined for the first): sequence continuity, the
 * link to the previous record and its hash, non-decreasing generation time, and the huella recomputed from the
 * stored values. Returns what is wrong, or undefined.
 */
function checkLink(previous: ChainRecord | undefined, record: ChainRecord, position: number): string | undefined {
  if (record.chainSeq !== position)
    return `its sequence number is ${record.chainSeq}, expected ${position}: a record is missing or duplicated`;
  if (record.recordType !== 'registration') return `it is a "${record.recordType}" record, which this check cannot recompute`;
  if (!previous) {
    if (record.previousInvoiceId !== null || record.previousHash !== null) return 'it is the first record but points to a previous record';
  } else {
    if (record.previousInvoiceId !== previous.id) return `it does not point to the record before it (${previous.invoiceNumber})`;
    if (record.previousHash !== previous.hash)
      return `its previous hash ${record.previousHash ?? '(none)'} differs from the hash of ${previous.invoiceNumber}, ${previous.hash}`;
    if (record.generatedAt.getTime() < previous.generatedAt.getTime())
      return `it was generated (${record.generatedAtLiteral}) before the record before it (${previous.generatedAtLiteral})`;
  }
  const recomputed = computeRegistrationHash({
    issuerNif: record.issuerNif,
    invoiceNumber: record.invoiceNumber,
    invoiceDate: toAeatDate(record.invoiceDate),
    invoiceType: record.invoiceType,
    totalTax: record.totalTaxAmount,
    total: record.totalAmount,
    previousHash: record.previousHash ?? undefined,
    generatedAt: record.generatedAtLiteral,
  });
  if (recomputed !== record.hash) return `its stored hash ${record.hash} does not match the hash recomputed from its values, ${recomputed}`;
  return undefined;
}

/** The chain head the taxpayer row claims; checked against the last record walked. */
export interface ChainHeadClaim {
  chainLength: number;
  /** Hash of the record the taxpayer's head points to; null for an empty chain. */
  lastHash: string | null;
}

/**
 * Walks records in chain order and reports the first broken link. Pure apart from reading the iterable, so a
 * caller can stream a long chain page by page from the database.
 */
export async function verifyChain(
  records: Iterable<ChainRecord> | AsyncIterable<ChainRecord>,
  head: ChainHeadClaim,
): Promise<ChainVerification> {
  let previous: ChainRecord | undefined;
  let position = 0;
  for await (const record of records) {
    position++;
    const problem = checkLink(previous, record, position);
    if (problem)
      return { ok: false, verified: position - 1, break: { position, invoiceId: record.id, invoiceNumber: record.invoiceNumber, problem } };
    previous = record;
  }
  if (head.chainLength !== position || head.lastHash !== (previous?.hash ?? null)) {
    const problem =
      head.chainLength !== position
        ? `the taxpayer's chain head counts ${head.chainLength} records, but ${position} ${position === 1 ? 'was' : 'were'} found`
        : `the taxpayer's chain head does not point to the last record found${previous ? ` (${previous.invoiceNumber})` : ''}`;
    return {
      ok: false,
      verified: position,
      break: { position, invoiceId: previous?.id ?? '', invoiceNumber: previous?.invoiceNumber ?? '', problem },
    };
  }
  return { ok: true, verified: position };
}
