import type { ValidationIssue } from '@vf/core';
import type { AppendAccount } from '@vf/db';

/**
 * Why the chain writer did not append a registration (or a record of an existing invoice): the caller tells its
 * client. Each `code` is the problem code the API answers with, so the refusals of a batch can be counted and shown as
 * they are.
 */
export type ChainRefusal =
  /** The API key the registration came with names no account (revoked or wrong): nothing was written. */
  | { code: 'unauthorized' }
  /**
   * The API key's account checks the recipients of every registration by default (its `recipient_check`), which must
   * come before the append: nothing was written, the caller registers again with the account and its check.
   */
  | { code: 'recipient_check_default' }
  /** No taxpayer with this id in the account (another account's is just as absent). */
  | { code: 'taxpayer_not_found' }
  /** No computer system with this id in the account. */
  | { code: 'system_not_found' }
  /** A system that declares it supports one taxpayer keeps the records of another. */
  | { code: 'system_single_taxpayer'; soleTaxpayerId: string | null }
  /** What the invoice says against its issuer (recipient or third party is the issuer): the authority's 1193 / 1188. */
  | { code: 'validation_failed'; issues: ValidationIssue[] }
  /** The chain already has this number and date, or an earlier item of the same group has. */
  | { code: 'duplicate_invoice'; invoiceNumber: string; invoiceDate: string }
  /**
   * In NO VERI*FACTU, a system that declares it can only work as VERI*FACTU (TipoUsoPosibleSoloVerifactu=S): its
   * records would say so while kept outside VERI*FACTU.
   */
  | { code: 'system_verifactu_only' }
  /** In NO VERI*FACTU a record exists only once signed: no certificate can sign it now, so nothing was written. */
  | { code: 'signing_certificate_unusable'; reason: string }
  /** The account's monthly quota is used up; `used` counts the commit's own registrations. */
  | { code: 'quota_exceeded'; account: AppendAccount; used: number; at: Date };

/** A refusal thrown where there is no outcome to carry it (a record of an existing invoice, `appendRecord`). */
export class ChainRefusedError extends Error {
  constructor(readonly refusal: ChainRefusal) {
    super(`the chain writer refused the record: ${refusal.code}`);
    this.name = 'ChainRefusedError';
  }
}
