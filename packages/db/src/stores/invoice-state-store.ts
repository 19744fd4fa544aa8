import { and, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { recordQrUrl } from '@vf/core';
import type { DbOrTx } from '../client';
import { invoices, taxpayers, type AuthorityStatus } from '../schema';
import { currentStatusIn } from './invoice-list-store';

// Invoices are addressed by their public id (their first record's); `cur` is their latest record, their current state.
const cur = alias(invoices, 'cur');

export interface InvoiceStatusRow {
  id: string;
  invoiceNumber: string;
  status: AuthorityStatus;
  code: number | null;
  message: string | null;
  errorCause: string | null;
}

/** An invoice the authority refused or flagged, with the authority's own code and text. */
export interface ProblemInvoice {
  id: string;
  invoiceNumber: string;
  invoiceType: string;
  invoiceDate: string;
  taxpayerName: string;
  status: AuthorityStatus;
  code: number | null;
  message: string | null;
  lastError: string | null;
  /** A cause on the service's side (@vf/core service causes), when no authority code says why. */
  errorCause: string | null;
  updatedAt: Date;
}

const PROBLEM_STATUSES: AuthorityStatus[] = ['rejected', 'error', 'accepted_with_warnings'];

/** Each invoice's current state (its latest record): status, QR, problems. Every query is scoped to the account. */
export const invoiceStateStore = {
  statuses(db: DbOrTx, accountId: string, ids: string[]): Promise<InvoiceStatusRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return db
      .select({
        id: invoices.id,
        invoiceNumber: invoices.invoiceNumber,
        status: cur.authorityStatus,
        code: cur.authorityCode,
        message: cur.authorityMessage,
        errorCause: cur.errorCause,
      })
      .from(invoices)
      .innerJoin(cur, eq(cur.id, invoices.currentRecordId))
      .where(and(eq(invoices.accountId, accountId), inArray(invoices.id, ids)));
  },

  async qrUrlOf(db: DbOrTx, accountId: string, id: string): Promise<string | undefined> {
    // A correction may change the total, which the QR carries: the current record's.
    const [row] = await db
      .select({
        issuerNif: cur.issuerNif,
        invoiceNumber: cur.invoiceNumber,
        invoiceDate: cur.invoiceDate,
        totalAmount: cur.totalAmount,
        isProduction: cur.isProduction,
        qrNoVerifactu: cur.qrNoVerifactu,
      })
      .from(invoices)
      .innerJoin(cur, eq(cur.id, invoices.currentRecordId))
      .where(and(eq(invoices.accountId, accountId), eq(invoices.id, id)));
    return row && recordQrUrl(row);
  },

  /**
   * The invoices most recently refused or flagged by the authority (or in error), latest first. Found from the
   * invoices' first rows, which keep their current record's status (migration 0030): the statuses are literals, so a
   * generic plan reads the account's index of first rows in a status other than accepted or kept.
   */
  latestProblems(db: DbOrTx, accountId: string, limit: number): Promise<ProblemInvoice[]> {
    return db
      .select({
        id: invoices.id,
        invoiceNumber: cur.invoiceNumber,
        invoiceType: cur.invoiceType,
        invoiceDate: cur.invoiceDate,
        taxpayerName: taxpayers.name,
        status: cur.authorityStatus,
        code: cur.authorityCode,
        message: cur.authorityMessage,
        lastError: cur.lastError,
        errorCause: cur.errorCause,
        updatedAt: cur.updatedAt,
      })
      .from(invoices)
      .innerJoin(cur, eq(cur.id, invoices.currentRecordId))
      .innerJoin(taxpayers, eq(taxpayers.id, cur.taxpayerId))
      .where(and(eq(invoices.accountId, accountId), isNotNull(invoices.currentRecordId), currentStatusIn(PROBLEM_STATUSES)))
      .orderBy(desc(cur.updatedAt), desc(cur.id))
      .limit(limit);
  },
};
