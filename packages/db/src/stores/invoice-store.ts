import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { invoiceIsCancelled, type SistemaInformatico } from '@vf/core';
import type { DbOrTx } from '../client';
import { invoiceLines, invoiceStatusEvents, invoices, systemSnapshotOf } from '../schema';
import type { PageKey } from './page-key';

/** A record's row as read: its SistemaInformatico block read from system_snapshots by its id (migration 0031). */
export type InvoiceRow = typeof invoices.$inferSelect & { systemSnapshot: SistemaInformatico };

/** The columns of an InvoiceRow, for a select of whole records. */
export const INVOICE_ROW_COLUMNS = {
  ...getTableColumns(invoices),
  systemSnapshot: systemSnapshotOf(invoices.systemSnapshotId),
};
export type InvoiceLineRow = typeof invoiceLines.$inferSelect;
export type StatusEventRow = typeof invoiceStatusEvents.$inferSelect;

/** What the next record of the chain needs from the previous one. */
export interface ChainHead {
  id: string;
  issuerNif: string;
  invoiceNumber: string;
  invoiceDate: string;
  hash: string;
  generatedAt: Date;
  generatedAtLiteral: string;
}

export type InvoiceSummary = Pick<
  InvoiceRow,
  | 'id'
  | 'taxpayerId'
  | 'computerSystemId'
  | 'invoiceNumber'
  | 'invoiceDate'
  | 'invoiceType'
  | 'recordType'
  | 'totalAmount'
  | 'totalTaxAmount'
  | 'chainSeq'
  | 'hash'
  | 'authorityStatus'
  | 'authorityCode'
  | 'generatedAtLiteral'
  | 'createdAt'
> & {
  cancelled: boolean;
  pageKey: PageKey;
  /** Rebuilt from the record's columns (recordQrUrl of @vf/core): not kept. */
  qrUrl: string;
};

/** An invoice: its records oldest first; the latest one is its current state. */
export interface InvoiceDetail {
  /** The latest record, whose content, status and huella are the invoice's current ones. */
  invoice: InvoiceRow;
  records: InvoiceRow[];
  cancelled: boolean;
  /** Lines of the latest record. */
  lines: InvoiceLineRow[];
  /** Status events of every record, in the order they happened. */
  events: StatusEventRow[];
}

/** Whether an invoice is cancelled, from its records oldest first (an accepted subsanación after an anulación reactivates it). */
export function isCancelled(records: Pick<InvoiceRow, 'recordType' | 'authorityStatus'>[]): boolean {
  return invoiceIsCancelled(records.map((r) => ({ recordType: r.recordType, status: r.authorityStatus })));
}

/**
 * isCancelled in SQL, for lists: `firstId` is an invoice's first record's id column, `current` its latest record. Most invoices have one
 * record, so the records are read only when the latest is a subsanación (which may be a reactivation still waiting).
 */
export function cancelledSql(firstId: AnyPgColumn, current: { recordType: AnyPgColumn; authorityStatus: AnyPgColumn }) {
  return sql<boolean>`(case
    when ${current.recordType} = 'cancellation' then ${current.authorityStatus} <> 'rejected'
    when ${current.recordType} = 'registration' then false
    else exists (
      select 1 from invoices anu where anu.invoice_id = ${firstId} and anu.record_type = 'cancellation' and anu.authority_status <> 'rejected'
        and not exists (
          select 1 from invoices sub where sub.invoice_id = ${firstId} and sub.record_type = 'correction' and sub.chain_seq > anu.chain_seq
            and sub.authority_status in ('accepted', 'accepted_with_warnings')))
  end)`;
}

/**
 * A record's first status (`queued`, or `kept` in NO VERI*FACTU, a status never left) at its creation time: implied by
 * the record, never kept as an event row (decision 0065). Its id is 0: no event row has it.
 */
export function firstStatusEvent(r: Pick<InvoiceRow, 'id' | 'authorityStatus' | 'createdAt'>): StatusEventRow {
  const status = r.authorityStatus === 'kept' ? 'kept' : 'queued';
  return { id: 0, invoiceId: r.id, status, code: null, message: null, submissionId: null, at: r.createdAt };
}

/**
 * The history of an invoice's records: the stored events in their order, each record's first status placed before
 * its own events and before any event that happened after it was created.
 */
function withFirstStatuses(records: InvoiceRow[], stored: StatusEventRow[]): StatusEventRow[] {
  const position = new Map(records.map((r, n) => [r.id, n]));
  const events: StatusEventRow[] = [];
  let next = 0;
  for (const e of stored) {
    const own = position.get(e.invoiceId) ?? -1;
    while (next < records.length && (next <= own || records[next].createdAt.getTime() <= e.at.getTime())) {
      events.push(firstStatusEvent(records[next++]));
    }
    events.push(e);
  }
  while (next < records.length) events.push(firstStatusEvent(records[next++]));
  return events;
}

export const invoiceStore = {
  /**
   * Keeps on each registered invoice what the census said of its recipients (`recipient_check=warn`): written after
   * the registration's commit, so a registration without a check never pays for it.
   */
  async keepRecipientChecks(db: DbOrTx, checks: { invoiceId: string; answers: unknown[] }[]): Promise<void> {
    if (checks.length === 0) return;
    const rows = JSON.stringify(checks.map((c) => ({ id: c.invoiceId, answers: c.answers })));
    await db.execute(sql`
      UPDATE invoices i SET recipient_check = c.answers
      FROM jsonb_to_recordset(${rows}::jsonb) AS c(id uuid, answers jsonb)
      WHERE i.id = c.id AND i.invoice_id = c.id`);
  },

  /** Whether the chain already has an invoice (a first record) with this number and date. */
  async existsInChain(db: DbOrTx, chainId: string, invoiceNumber: string, invoiceDate: string): Promise<boolean> {
    const rows = await db
      .select({ id: invoices.id })
      .from(invoices)
      .where(
        and(
          eq(invoices.chainId, chainId),
          eq(invoices.invoiceNumber, invoiceNumber),
          eq(invoices.invoiceDate, invoiceDate),
          eq(invoices.id, invoices.invoiceId),
        ),
      )
      .limit(1);
    return rows.length > 0;
  },

  /** Every record of the account's invoice `id`, oldest first; empty when there is no such invoice. */
  recordsOf(db: DbOrTx, accountId: string, id: string): Promise<InvoiceRow[]> {
    return db
      .select(INVOICE_ROW_COLUMNS)
      .from(invoices)
      .where(and(eq(invoices.accountId, accountId), eq(invoices.invoiceId, id)))
      .orderBy(asc(invoices.chainSeq));
  },

  linesOf(db: DbOrTx, recordId: string): Promise<InvoiceLineRow[]> {
    return db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, recordId)).orderBy(asc(invoiceLines.lineNo));
  },

  async find(db: DbOrTx, accountId: string, id: string): Promise<InvoiceDetail | undefined> {
    const records = await invoiceStore.recordsOf(db, accountId, id);
    if (records.length === 0) return undefined;
    const invoice = records[records.length - 1];
    const [lines, stored] = await Promise.all([
      invoiceStore.linesOf(db, invoice.id),
      db
        .select()
        .from(invoiceStatusEvents)
        .where(
          inArray(
            invoiceStatusEvents.invoiceId,
            records.map((r) => r.id),
          ),
        )
        .orderBy(asc(invoiceStatusEvents.id)),
    ]);
    return { invoice, records, cancelled: isCancelled(records), lines, events: withFirstStatuses(records, stored) };
  },

  async isOwnedBy(db: DbOrTx, accountId: string, id: string): Promise<boolean> {
    const rows = await db
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.accountId, accountId), eq(invoices.id, id), eq(invoices.invoiceId, id)));
    return rows.length > 0;
  },
};
