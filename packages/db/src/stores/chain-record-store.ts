import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { previousRecord } from './previous-record';
import type { StoredChainRecord } from '../records/chain-record-shape';
import { invoices, submissionInvoices, submissions } from '../schema';
import { signedRecordStore } from './signed-record-store';
import { INVOICE_ROW_COLUMNS, invoiceStore } from './invoice-store';

export interface ChainRecordWithMessage {
  record: StoredChainRecord;
  /** Its place in the chain and the previous huella as stored on its row (what the link check compares). */
  chainSeq: number;
  previousHash: string | null;
  /** The request XML of the latest message that carried the record; null while it was never sent. */
  sentRequestXml: string | null;
  /** The record as it was signed, the bytes every message carrying it embeds; null while it was never signed. */
  signedXml: string | null;
}

export const chainRecordStore = {
  /** One record of the account's invoice, with what rebuilding it needs and the last message that carried it. */
  async find(db: DbOrTx, accountId: string, invoiceId: string, recordId: string): Promise<ChainRecordWithMessage | undefined> {
    const { prev, columns } = previousRecord();
    const [row] = await db
      .select({
        record: INVOICE_ROW_COLUMNS,
        ...columns,
      })
      .from(invoices)
      .leftJoin(prev, eq(prev.id, invoices.previousInvoiceId))
      .where(and(eq(invoices.accountId, accountId), eq(invoices.invoiceId, invoiceId), eq(invoices.id, recordId)));
    if (!row) return undefined;
    const [lines, signed, [sent]] = await Promise.all([
      invoiceStore.linesOf(db, recordId),
      signedRecordStore.of(db, [recordId]),
      db
        .select({ requestXml: submissions.requestXml })
        .from(submissionInvoices)
        .innerJoin(submissions, eq(submissions.id, submissionInvoices.submissionId))
        .where(eq(submissionInvoices.invoiceId, recordId))
        .orderBy(desc(submissions.startedAt), desc(submissions.id))
        .limit(1),
    ]);
    const r = row.record;
    return {
      record: {
        ...r,
        previous:
          row.prevIssuerNif && row.prevNumber && row.prevDate && row.prevHash
            ? { issuerNif: row.prevIssuerNif, invoiceNumber: row.prevNumber, invoiceDate: row.prevDate, hash: row.prevHash }
            : null,
        lines,
      },
      chainSeq: r.chainSeq,
      previousHash: r.previousHash,
      sentRequestXml: sent?.requestXml ?? null,
      signedXml: signed.get(recordId) ?? null,
    };
  },
};
