import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { submissionInvoices, submissions } from '../schema';

export type SubmissionRow = typeof submissions.$inferSelect;

export const submissionHistoryStore = {
  /** Every SOAP exchange that carried the invoice, newest first. */
  async forInvoice(db: DbOrTx, invoiceId: string): Promise<SubmissionRow[]> {
    const rows = await db
      .select({ submission: submissions })
      .from(submissionInvoices)
      .innerJoin(submissions, eq(submissions.id, submissionInvoices.submissionId))
      .where(eq(submissionInvoices.invoiceId, invoiceId))
      .orderBy(desc(submissions.startedAt), desc(submissions.id));
    return rows.map((r) => r.submission);
  },
};
