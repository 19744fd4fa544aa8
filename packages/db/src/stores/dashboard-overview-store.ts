import { and, count, desc, eq, inArray, max, min, sql } from 'drizzle-orm';
import { WAITING_STATUSES } from '@vf/core';
import type { DbOrTx } from '../client';
import { invoices, sendStates, taxpayers, type AuthorityStatus } from '../schema';
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
  updatedAt: Date;
}

/** Records of one taxpayer still on their way to the authority, and when flow control lets the next message go. */
export interface PendingForTaxpayer {
  taxpayerId: string;
  nif: string;
  name: string;
  isProduction: boolean;
  waiting: number;
  oldestGeneratedAt: Date;
  /** Null until the first send for this taxpayer. */
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
        nif: taxpayers.nif,
        name: taxpayers.name,
        isProduction: taxpayers.isProduction,
        waiting: count(),
        oldestGeneratedAt: min(invoices.generatedAt),
        nextSendAt: max(sendStates.nextSendAt),
        consecutiveFailures: sql<number>`coalesce(max(${sendStates.consecutiveFailures}), 0)::int`,
      })
      .from(invoices)
      .innerJoin(taxpayers, eq(taxpayers.id, invoices.taxpayerId))
      .leftJoin(sendStates, eq(sendStates.taxpayerId, taxpayers.id))
      .where(and(eq(invoices.accountId, accountId), inArray(invoices.authorityStatus, [...WAITING_STATUSES])))
      .groupBy(taxpayers.id)
      .orderBy(taxpayers.name);
    return rows.map((r) => ({ ...r, oldestGeneratedAt: r.oldestGeneratedAt ?? new Date(0) }));
  },
};
