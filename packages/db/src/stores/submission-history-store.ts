import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { invoices, submissionInvoices, submissions } from '../schema';

export type SubmissionRow = typeof submissions.$inferSelect;

export const submissionHistoryStore = {
  /** Every SOAP exchange that carried a record of the invoice, newest first. */
  async forInvoice(db: DbOrTx, invoiceId: string): Promise<SubmissionRow[]> {
    const rows = await db
      .select({ submission: submissions })
      .from(invoices)
      .innerJoin(submissionInvoices, eq(submissionInvoices.invoiceId, invoices.id))
      .innerJoin(submissions, eq(submissions.id, submissionInvoices.submissionId))
      .where(eq(invoices.invoiceId, invoiceId))
      .orderBy(desc(submissions.startedAt), desc(submissions.id));
    // Two records of one invoice can travel in the same message.
    const seen = new Set<string>();
    return rows.map((r) => r.submission).filter((s) => !seen.has(s.id) && seen.add(s.id) !== undefined);
  },
};
