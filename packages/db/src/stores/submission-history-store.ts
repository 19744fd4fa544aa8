import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { markedRecordIds, requestXmlAsSent } from '../records/stored-request-xml';
import { invoices, submissionInvoices, submissions } from '../schema';
import { signedRecordStore } from './signed-record-store';

export type SubmissionRow = typeof submissions.$inferSelect;

export const submissionHistoryStore = {
  /** Every SOAP exchange that carried a record of the invoice, newest first, its request XML exactly as it went. */
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
    const carried = rows.map((r) => r.submission).filter((s) => !seen.has(s.id) && seen.add(s.id) !== undefined);
    const signed = await signedRecordStore.of(db, [...new Set(carried.flatMap((s) => markedRecordIds(s.requestXml)))]);
    return carried.map((s) => ({ ...s, requestXml: requestXmlAsSent(s.requestXml, signed) }));
  },
};
