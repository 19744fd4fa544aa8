import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import type { StoredChainRecord } from '../records/chain-record-shape';
import { invoiceLines, invoices } from '../schema';
import { INVOICE_ROW_COLUMNS } from './invoice-store';
import { previousRecord } from './previous-record';
import { storedLineOf, type StoredLine } from './stored-invoice-content';

/** These records as stored, with their lines and previous record: what rebuilding each needs. By record id. */
export async function storedChainRecords(db: DbOrTx, ids: string[]): Promise<Map<string, StoredChainRecord>> {
  if (ids.length === 0) return new Map();
  const { prev, columns } = previousRecord();
  const [rows, lines] = await Promise.all([
    db
      .select({ record: INVOICE_ROW_COLUMNS, ...columns })
      .from(invoices)
      .leftJoin(prev, eq(prev.id, invoices.previousInvoiceId))
      .where(sql`${invoices.id} = ANY(${sql.param(ids)}::uuid[])`),
    db
      .select()
      .from(invoiceLines)
      .where(sql`${invoiceLines.invoiceId} = ANY(${sql.param(ids)}::uuid[])`)
      .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.lineNo)),
  ]);
  const linesOf = new Map<string, StoredLine[]>();
  for (const line of lines) {
    const list = linesOf.get(line.invoiceId);
    if (list) list.push(storedLineOf(line));
    else linesOf.set(line.invoiceId, [storedLineOf(line)]);
  }
  return new Map(
    rows.map(({ record, prevIssuerNif, prevNumber, prevDate, prevHash }) => [
      record.id,
      {
        ...record,
        previous:
          record.previousInvoiceId && prevIssuerNif && prevNumber && prevDate && prevHash
            ? { issuerNif: prevIssuerNif, invoiceNumber: prevNumber, invoiceDate: prevDate, hash: prevHash }
            : null,
        lines: linesOf.get(record.id) ?? [],
      },
    ]),
  );
}
