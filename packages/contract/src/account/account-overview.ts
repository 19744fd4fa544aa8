import type { AuthorityStatus } from '@vf/core';
import type { AccountWithPlan, OutageSummary, PendingForTaxpayer, ProblemInvoice, StatusCount } from '@vf/db';

export interface MonthCounts {
  /** "2026-11" */
  month: string;
  counts: Record<AuthorityStatus, number>;
  total: number;
}

export interface AccountUsage {
  period: string;
  used: number;
  remaining: number;
  resetsAt: Date;
}

/** An account and what is happening in it: usage, invoices by status, problems, what waits to be sent. */
export interface AccountOverview {
  account: AccountWithPlan;
  usage: AccountUsage;
  counts: StatusCount[];
  problems: ProblemInvoice[];
  pending: PendingForTaxpayer[];
  outage: OutageSummary | undefined;
  months: MonthCounts[];
}
