import { and, count, desc, eq, inArray, max, min, sql } from 'drizzle-orm';
import { WAITING_STATUSES } from '@vf/core';
import type { DbOrTx } from '../client';
import { chains, invoices, sendStates, taxpayers, type AuthorityStatus } from '../schema';
import { isCurrentRecord } from './invoice-store';

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

/**
 * Records of one taxpayer's chain (one environment) still on their way to the authority, and when that chain's flow
 * control lets the next message go.
 */
export interface PendingForTaxpayer {
  taxpayerId: string;
  chainId: string;
  nif: string;
  name: string;
  /** The chain's environment, which may differ from the taxpayer's current one after a switch. */
  isProduction: boolean;
  waiting: number;
  oldestGeneratedAt: Date;
  /** Null until the chain's first send. */
  nextSendAt: Date | null;
  consecutiveFailures: number;
}

export interface StatusCount {
  status: AuthorityStatus;
  corrective: boolean;
  n: number;
}

const PROBLEM_STATUSES: AuthorityStatus[] = ['rejected', 'error', 'accepted_with_warnings'];

export const dashboardOverviewStore = {
  /** Invoices per status, normal (F*) and corrective (R*) counted apart as the dashboard shows them apart. */
  async countsByStatus(db: DbOrTx, accountId: string): Promise<StatusCount[]> {
    const corrective = sql<boolean>`(${invoices.invoiceType} LIKE 'R%')`;
    return db
      .select({ status: invoices.authorityStatus, corrective, n: count() })
      .from(invoices)
      .where(and(eq(invoices.accountId, accountId), isCurrentRecord))
      .groupBy(invoices.authorityStatus, corrective);
  },

  latestProblems(db: DbOrTx, accountId: string, limit: number): Promise<ProblemInvoice[]> {
    return db
      .select({
        id: invoices.invoiceId,
        invoiceNumber: invoices.invoiceNumber,
        invoiceType: invoices.invoiceType,
        invoiceDate: invoices.invoiceDate,
        taxpayerName: taxpayers.name,
        status: invoices.authorityStatus,
        code: invoices.authorityCode,
        message: invoices.authorityMessage,
        lastError: invoices.lastError,
        errorCause: invoices.errorCause,
        updatedAt: invoices.updatedAt,
      })
      .from(invoices)
      .innerJoin(taxpayers, eq(taxpayers.id, invoices.taxpayerId))
      .where(and(eq(invoices.accountId, accountId), inArray(invoices.authorityStatus, PROBLEM_STATUSES), isCurrentRecord))
      .orderBy(desc(invoices.updatedAt), desc(invoices.id))
      .limit(limit);
  },

  async pendingByTaxpayer(db: DbOrTx, accountId: string): Promise<PendingForTaxpayer[]> {
    const rows = await db
      .select({
        taxpayerId: taxpayers.id,
        chainId: chains.id,
        nif: chains.nif,
        name: taxpayers.name,
        isProduction: chains.isProduction,
        waiting: count(),
        oldestGeneratedAt: min(invoices.generatedAt),
        nextSendAt: max(sendStates.nextSendAt),
        consecutiveFailures: sql<number>`coalesce(max(${sendStates.consecutiveFailures}), 0)::int`,
      })
      .from(invoices)
      .innerJoin(chains, eq(chains.id, invoices.chainId))
      .innerJoin(taxpayers, eq(taxpayers.id, chains.taxpayerId))
      .leftJoin(sendStates, eq(sendStates.chainId, chains.id))
      .where(and(eq(invoices.accountId, accountId), inArray(invoices.authorityStatus, [...WAITING_STATUSES])))
      .groupBy(taxpayers.id, chains.id)
      .orderBy(taxpayers.name, chains.isProduction);
    return rows.map((r) => ({ ...r, oldestGeneratedAt: r.oldestGeneratedAt ?? new Date(0) }));
  },
};
