import { computeCancellationHash, computeRegistrationHash, toAeatDate } from '@vf/core';
import type { ChainBreak, ChainRecord, ChainVerification } from '@vf/contract';
import type { SignatureCheck } from '../verification/signature-check';

const MAX_LISTED = 20;

/**
 * Checks record `position` against the record before it (undefined for the first): sequence continuity, the
 * link to the previous record and its hash, non-decreasing generation time, and the huella recomputed from the
 * stored values. Returns what is wrong, or undefined.
 */
function checkLink(previous: ChainRecord | undefined, record: ChainRecord, position: number): string | undefined {
  if (record.chainSeq !== position)
    return `its sequence number is ${record.chainSeq}, expected ${position}: a record is missing or duplicated`;
  if (!previous) {
    if (record.previousInvoiceId !== null || record.previousHash !== null) return 'it is the first record but points to a previous record';
  } else {
    if (record.previousInvoiceId !== previous.id) return `it does not point to the record before it (${previous.invoiceNumber})`;
    if (record.previousHash !== previous.hash)
      return `its previous hash ${record.previousHash ?? '(none)'} differs from the hash of ${previous.invoiceNumber}, ${previous.hash}`;
    if (record.generatedAt.getTime() < previous.generatedAt.getTime())
      return `it was generated (${record.generatedAtLiteral}) before the record before it (${previous.generatedAtLiteral})`;
  }
  const id = { issuerNif: record.issuerNif, invoiceNumber: record.invoiceNumber, invoiceDate: toAeatDate(record.invoiceDate) };
  const chained = { previousHash: record.previousHash ?? undefined, generatedAt: record.generatedAtLiteral };
  // An anulación's huella covers the cancelled invoice's id; an alta's (registration or correction) its amounts too.
  const recomputed =
    record.recordType === 'cancellation'
      ? computeCancellationHash({ ...id, ...chained })
      : computeRegistrationHash({
          ...id,
          ...chained,
          invoiceType: record.invoiceType,
          totalTax: record.totalTaxAmount,
          total: record.totalAmount,
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

/** What a walk over part of a chain needs besides its records. */
export interface ChainWalk {
  /** Position of the first record given (1: the chain's start). */
  from?: number;
  /** The record just before `from`, which the first record must link to. */
  before?: ChainRecord;
  /** The last position asked for; absent: the chain's end, where the head must point at the last record. */
  to?: number;
  /** Checks a record's signature (verification/signature-check.ts); without it signatures are not looked at. */
  signature?: (record: ChainRecord) => Promise<SignatureCheck>;
}

/**
 * Walks records in chain order: each huella recomputed, each link checked, each signature verified. Stops at the
 * first broken link; an invalid signature is listed and the walk goes on. When the walk reaches the head's
 * length, the head must point at the last record. Pure apart from reading the iterable and the signature check,
 * so a caller can stream a long chain page by page from the database.
 */
export async function verifyChain(
  records: Iterable<ChainRecord> | AsyncIterable<ChainRecord>,
  head: ChainHeadClaim,
  walk: ChainWalk = {},
): Promise<ChainVerification> {
  const from = walk.from ?? 1;
  const signatures = { valid: 0, invalid: 0, missing: 0 };
  const invalidSignatures: ChainBreak[] = [];
  const result = (verified: number, broken?: ChainBreak): ChainVerification => ({
    ok: !broken && invalidSignatures.length === 0,
    from,
    verified,
    ...(broken ? { break: broken } : {}),
    signatures,
    invalidSignatures: invalidSignatures.slice(0, MAX_LISTED),
  });
  let previous = walk.before;
  let position = from - 1;
  for await (const record of records) {
    position++;
    const at = { position, invoiceId: record.id, invoiceNumber: record.invoiceNumber };
    const problem = checkLink(previous, record, position);
    if (problem) return result(position - from, { ...at, problem });
    if (walk.signature) {
      const check = await walk.signature(record);
      signatures[check.status] += 1;
      if (check.status === 'invalid') invalidSignatures.push({ ...at, problem: check.problems.join('; ') });
    }
    previous = record;
  }
  const verified = position - from + 1;
  const reachesEnd = walk.to === undefined || walk.to >= head.chainLength;
  if (reachesEnd && (head.chainLength !== position || head.lastHash !== (previous?.hash ?? null))) {
    const problem =
      head.chainLength !== position
        ? `the taxpayer's chain head counts ${head.chainLength} records, but ${position} ${position === 1 ? 'was' : 'were'} found`
        : `the taxpayer's chain head does not point to the last record found${previous ? ` (${previous.invoiceNumber})` : ''}`;
    return result(verified, { position, invoiceId: previous?.id ?? '', invoiceNumber: previous?.invoiceNumber ?? '', problem });
  }
  return result(verified);
}
