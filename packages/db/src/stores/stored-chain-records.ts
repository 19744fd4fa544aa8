import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { SistemaInformatico } from '@vf/core';
import type { DbOrTx } from '../client';
import type { StoredChainRecord } from '../records/chain-record-shape';
import { invoiceLines, invoices, systemSnapshots } from '../schema';
import { previousRecord } from './previous-record';
import { STORED_INVOICE_CONTENT_COLUMNS, storedLineOf, type StoredLine } from './stored-invoice-content';

// The columns a record is rebuilt from (StoredChainRecord), not the whole row: a chain's verification reads them for
// a thousand records a page, where every further column is parsed, mapped and copied to a thread for nothing.
const REBUILT_FROM = {
  id: invoices.id,
  systemSnapshotId: invoices.systemSnapshotId,
  recordType: invoices.recordType,
  subsanacion: invoices.subsanacion,
  rechazoPrevio: invoices.rechazoPrevio,
  sinRegistroPrevio: invoices.sinRegistroPrevio,
  issuerNif: invoices.issuerNif,
  issuerName: invoices.issuerName,
  generatedAtLiteral: invoices.generatedAtLiteral,
  previousInvoiceId: invoices.previousInvoiceId,
  hash: invoices.hash,
  ...STORED_INVOICE_CONTENT_COLUMNS,
};

/** These records as stored, with their lines and previous record: what rebuilding each needs. By record id. */
export async function storedChainRecords(db: DbOrTx, ids: string[]): Promise<Map<string, StoredChainRecord>> {
  if (ids.length === 0) return new Map();
  const { prev, columns } = previousRecord();
  // One after the other: `db` may be a transaction's one connection, where queries cannot overlap.
  const rows = await db
    .select({ record: REBUILT_FROM, ...columns })
    .from(invoices)
    .leftJoin(prev, eq(prev.id, invoices.previousInvoiceId))
    .where(sql`${invoices.id} = ANY(${sql.param(ids)}::uuid[])`);
  const lines = await db
    .select()
    .from(invoiceLines)
    .where(sql`${invoiceLines.invoiceId} = ANY(${sql.param(ids)}::uuid[])`)
    .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.lineNo));
  // A chain's records name one or a few SistemaInformatico blocks: each is read and parsed once, not once a record.
  const snapshots = await snapshotsById(db, [...new Set(rows.map((r) => r.record.systemSnapshotId))]);
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
        systemSnapshot: snapshots.get(record.systemSnapshotId)!,
        previous:
          record.previousInvoiceId && prevIssuerNif && prevNumber && prevDate && prevHash
            ? { issuerNif: prevIssuerNif, invoiceNumber: prevNumber, invoiceDate: prevDate, hash: prevHash }
            : null,
        lines: linesOf.get(record.id) ?? [],
      },
    ]),
  );
}

async function snapshotsById(db: DbOrTx, ids: string[]): Promise<Map<string, SistemaInformatico>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select().from(systemSnapshots).where(inArray(systemSnapshots.id, ids));
  return new Map(rows.map((r) => [r.id, r.snapshot]));
}
