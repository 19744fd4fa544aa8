import { HashMismatchError, rebuildChainRecord } from '@vf/chain';
import type { ChainRecordWithMessage } from '@vf/db';
import { isSignatureOf } from '@vf/signing';
import { buildRecordXml } from '@vf/xml';
import type { InvoiceQueryService } from '../invoices/invoice-query-service';
import { checkSignature, type SignatureCheck } from './signature-check';
import type { SignerPolicy } from './signer-policy';

export type RecordVerificationService = ReturnType<typeof createRecordVerificationService>;

export interface RecordVerification {
  recordId: string;
  chainSeq: number;
  /** The huella recomputed from the stored values. */
  hash: { valid: boolean; stored: string; recomputed: string };
  link: { valid: boolean; problem?: string };
  signature: SignatureCheck;
}

function checkLink(found: ChainRecordWithMessage): RecordVerification['link'] {
  const { record, previousHash, chainSeq } = found;
  if (!record.previous) {
    if (chainSeq === 1 && previousHash === null) return { valid: true };
    return { valid: false, problem: `it is record ${chainSeq} of its chain, yet it links to no previous record` };
  }
  if (previousHash !== record.previous.hash)
    return {
      valid: false,
      problem: `its previous hash ${previousHash ?? '(none)'} differs from the hash of the record before it, ${record.previous.hash}`,
    };
  return { valid: true };
}

/** Recomputes the huella (as the worker rebuilds the record to send it) and returns the record's XML when it holds. */
function recompute(found: ChainRecordWithMessage): { hash: RecordVerification['hash']; xml?: string } {
  const stored = found.record.hash;
  try {
    return { hash: { valid: true, stored, recomputed: stored }, xml: buildRecordXml(rebuildChainRecord(found.record)) };
  } catch (err) {
    if (!(err instanceof HashMismatchError)) throw err;
    return { hash: { valid: false, stored, recomputed: err.rebuiltHash } };
  }
}

/** One record checked on demand: its huella, its link to the record before it and its signature. */
export function createRecordVerificationService(deps: { invoices: InvoiceQueryService; signers: SignerPolicy }) {
  return {
    async verify(accountId: string, invoiceId: string, recordId: string): Promise<RecordVerification> {
      const found = await deps.invoices.record(accountId, invoiceId, recordId);
      const { hash, xml } = recompute(found);
      const signature = await checkSignature(found.signedXml, found.record, deps.signers);
      // The signed bytes must be exactly the record the database holds, signature aside.
      if (found.signedXml !== null && xml !== undefined && !isSignatureOf(found.signedXml, xml)) {
        signature.status = 'invalid';
        signature.problems.push('the signed record differs from the record stored in the database');
      }
      return { recordId: found.record.id, chainSeq: found.chainSeq, hash, link: checkLink(found), signature };
    },
  };
}
