import type { ChainRecordLine, ChainRecordRow } from '../records/chain-record-shape';
import type { AppendSystem } from './chain-append-read-store';

/** An Idempotency-Key answer stored in the same statement as the records it answers for (body already sealed). */
export interface SealedAnswer {
  accountId: string;
  key: string;
  owner: string;
  /**
   * Set for the answer of one item of a batch: `key` is then the item's own (derived from the batch's, never one a
   * client can send) and the answer is stored as a new row while `owner` still holds `parentKey`'s claim.
   */
  parentKey?: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The records to append to one chain, built on the head the read returned. */
export interface AppendWrite {
  chainId: string;
  taxpayerId: string;
  /** The head (and the mode's version) the records were built on: the chain's write is refused when either moved since. */
  expected: { length: number; lastInvoiceId: string | null; modeVersion: number };
  /** "YYYY-MM": the registrations (not corrections nor cancellations) count against the chain's allowance of this month. */
  period: string;
  /** Every system the records use. */
  systems: string[];
  /** Single-taxpayer systems the records use: the write takes each for this taxpayer, or fails if another has it. */
  soleSystems: string[];
  records: ChainRecordRow[];
  lines: ChainRecordLine[];
  answers: SealedAnswer[];
  /** Built on a read this process kept (none made for it): the write checks what that read would have found. */
  assumed?: AssumedRead;
}

/**
 * What a write built on a kept read assumes besides its chain's head, each as the read (chain-append-read-store.ts)
 * would find it now: the API key still names the account (on its plan, with no default recipient check), the taxpayer
 * still is the account's with the same NIF and name, the account still has (or has not) other taxpayers, every system
 * the records name still is the account's as read, and none of the invoices is on the chain yet. Anything else and
 * nothing is written, as when the head moved.
 */
export interface AssumedRead {
  accountId: string;
  /** The API key the registrations came with, when the read would have checked it. */
  keyDigest?: string;
  planId: string;
  nif: string;
  name: string;
  severalTaxpayers: boolean;
  systems: AppendSystem[];
  invoices: { invoiceNumber: string; invoiceDate: string }[];
}

/**
 * Per chain, in the order of the writes. `appended`: its head was swapped and its records stored (`backlog`: its
 * records not yet put in a message). Not appended: its head moved, its taxpayer switched environment or its allowance
 * ran short since the read; nothing of it was stored.
 */
export type AppendResult = { appended: true; backlog: number } | { appended: false };
