import { and, asc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../client';
import { taxIdListRows, taxIdLists, webhookDeliveries, webhookEndpoints } from '../schema';
import type { SealedAnswer } from './chain-append-write';
import { idempotencyStore } from './idempotency-store';

export type TaxIdListRow = typeof taxIdLists.$inferSelect;
export type TaxIdListItem = Omit<typeof taxIdListRows.$inferSelect, 'listId' | 'name'>;

/** A tax ID of a list, as asked: a NIF with its name, or a VAT number. */
export interface TaxIdListQuestion {
  taxId: string;
  kind: 'nif' | 'vat_number';
  name?: string;
}

/** A row's answer, written once. */
export interface TaxIdListAnswer {
  position: number;
  result: string;
  detail: string;
  censusName?: string | null;
  faultCode?: string | null;
  requestIdentifier?: string | null;
  source: string;
  checkedAt: Date;
}

/** Rows go in and are answered in parts of this size: ten parameters a row stay far below PostgreSQL's limit. */
const PART = 2_000;

/** The lists of tax IDs the workers check, their rows and answers. */
export const taxIdListStore = {
  /**
   * The list and all its rows, in one transaction: a list is there whole or not at all. `answer`: with an
   * Idempotency-Key, the answer kept in that transaction.
   */
  async create(
    db: Db,
    list: { accountId: string; taxpayerId?: string; maxAge: number; questions: readonly TaxIdListQuestion[] },
    answer?: (list: TaxIdListRow) => SealedAnswer,
  ): Promise<TaxIdListRow> {
    return db.transaction(async (tx) => {
      const [row] = await tx
        .insert(taxIdLists)
        .values({ accountId: list.accountId, taxpayerId: list.taxpayerId, maxAge: list.maxAge, total: list.questions.length })
        .returning();
      // One parameter for all the rows: a statement of 10,000 rows' values is slow to build and to plan.
      const rows = list.questions.map((q, i) => ({ position: i + 1, tax_id: q.taxId, kind: q.kind, name: q.name ?? null }));
      await tx.execute(sql`
        INSERT INTO tax_id_list_rows (list_id, position, tax_id, kind, name)
        SELECT ${row!.id}, r.position, r.tax_id, r.kind, r.name
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(position int, tax_id text, kind text, name text)`);
      if (answer) await idempotencyStore.keep(tx, answer(row!));
      return row!;
    });
  },

  /** One list of the account's; none for another account's. */
  async find(db: DbOrTx, accountId: string, id: string): Promise<TaxIdListRow | undefined> {
    const [row] = await db
      .select()
      .from(taxIdLists)
      .where(and(eq(taxIdLists.accountId, accountId), eq(taxIdLists.id, id)));
    return row;
  },

  /** A list as the workers read it, whatever its account. */
  async forWork(db: DbOrTx, id: string): Promise<TaxIdListRow | undefined> {
    const [row] = await db.select().from(taxIdLists).where(eq(taxIdLists.id, id));
    return row;
  },

  /** The rows still to answer, in order, with the names they are asked with. */
  unanswered(db: DbOrTx, id: string, limit: number): Promise<(TaxIdListQuestion & { position: number })[]> {
    return db
      .select({
        position: taxIdListRows.position,
        taxId: taxIdListRows.taxId,
        kind: taxIdListRows.kind,
        name: sql<string>`coalesce(${taxIdListRows.name}, '')`,
      })
      .from(taxIdListRows)
      .where(and(eq(taxIdListRows.listId, id), isNull(taxIdListRows.result)))
      .orderBy(asc(taxIdListRows.position))
      .limit(limit);
  },

  /** Writes answers to rows not answered yet (the name is dropped with it) and counts the list's answered rows. */
  async answer(db: Db, id: string, answers: readonly TaxIdListAnswer[]): Promise<void> {
    await db.transaction(async (tx) => {
      for (let at = 0; at < answers.length; at += PART) {
        const part = answers.slice(at, at + PART).map((a) => ({
          position: a.position,
          result: a.result,
          detail: a.detail,
          census_name: a.censusName ?? null,
          fault_code: a.faultCode ?? null,
          request_identifier: a.requestIdentifier ?? null,
          source: a.source,
          checked_at: a.checkedAt.toISOString(),
        }));
        await tx.execute(sql`
          UPDATE tax_id_list_rows r
             SET result = a.result, detail = a.detail, census_name = a.census_name, fault_code = a.fault_code,
                 request_identifier = a.request_identifier, source = a.source, checked_at = a.checked_at, name = NULL
            FROM jsonb_to_recordset(${JSON.stringify(part)}::jsonb) AS a(position int, result text, detail text,
                 census_name text, fault_code text, request_identifier text, source text, checked_at timestamptz)
           WHERE r.list_id = ${id} AND r.position = a.position AND r.result IS NULL`);
      }
      await tx
        .update(taxIdLists)
        .set({
          answered: sql`(SELECT count(*)::int FROM ${taxIdListRows} WHERE ${taxIdListRows.listId} = ${id} AND ${taxIdListRows.result} IS NOT NULL)`,
        })
        .where(eq(taxIdLists.id, id));
    });
  },

  /**
   * Marks a list done and, in the same transaction, adds a delivery of `eventType` for each endpoint of its account
   * subscribed to it (the workers' webhook sweep sends them). Once: a list already done gets nothing.
   */
  async finish(db: Db, id: string, eventType: string, payloadOf: (list: TaxIdListRow) => string): Promise<TaxIdListRow | undefined> {
    return db.transaction(async (tx) => {
      const [done] = await tx
        .update(taxIdLists)
        .set({ status: 'done', finishedAt: sql`now()` })
        .where(and(eq(taxIdLists.id, id), eq(taxIdLists.status, 'pending')))
        .returning();
      if (!done) return undefined;
      const endpoints = await tx
        .select({ id: webhookEndpoints.id })
        .from(webhookEndpoints)
        .where(
          and(eq(webhookEndpoints.accountId, done.accountId), sql`${webhookEndpoints.events} @> ${JSON.stringify([eventType])}::jsonb`),
        );
      const payload = payloadOf(done);
      if (endpoints.length > 0) {
        await tx.insert(webhookDeliveries).values(endpoints.map((e) => ({ endpointId: e.id, invoiceId: null, eventType, payload })));
      }
      return done;
    });
  },

  /** A page of a list's rows in order, after `after` (a position). */
  page(db: DbOrTx, id: string, after: number, limit: number): Promise<TaxIdListItem[]> {
    return db
      .select({
        position: taxIdListRows.position,
        taxId: taxIdListRows.taxId,
        kind: taxIdListRows.kind,
        result: taxIdListRows.result,
        detail: taxIdListRows.detail,
        censusName: taxIdListRows.censusName,
        faultCode: taxIdListRows.faultCode,
        requestIdentifier: taxIdListRows.requestIdentifier,
        source: taxIdListRows.source,
        checkedAt: taxIdListRows.checkedAt,
      })
      .from(taxIdListRows)
      .where(and(eq(taxIdListRows.listId, id), gt(taxIdListRows.position, after)))
      .orderBy(asc(taxIdListRows.position))
      .limit(limit);
  },

  /** Lists still pending that were created before `before`: their jobs are put back if Redis lost them. */
  async pending(db: DbOrTx, before: Date, limit = 100): Promise<string[]> {
    const rows = await db
      .select({ id: taxIdLists.id })
      .from(taxIdLists)
      .where(and(eq(taxIdLists.status, 'pending'), lt(taxIdLists.createdAt, before)))
      .orderBy(asc(taxIdLists.createdAt))
      .limit(limit);
    return rows.map((r) => r.id);
  },
};
