import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { rawRows } from './raw-rows';

/** A record as a summary or an export names it: IDFacturaExpedidaHuellaType. */
export interface RecordMark {
  issuerNif: string;
  invoiceNumber: string;
  /** YYYY-MM-DD */
  invoiceDate: string;
  hash: string;
}

/** The records one system generated in a taxpayer chain over a period (ResumenEventos, ExportacionRegFacturacionPeriodo). */
export interface PeriodRecords {
  first: RecordMark | undefined;
  last: RecordMark | undefined;
  altas: number;
  anulaciones: number;
  /** Sums of the altas' CuotaTotal and ImporteTotal, two decimals. */
  taxSum: string;
  totalSum: string;
}

/** A chain of events that operates as NO VERI*FACTU, and where its next summary starts. */
export interface SummaryCandidate {
  chainId: string;
  systemId: string;
}

export const summaryStore = {
  /** The chains of events whose last start or end of NO VERI*FACTU operation is a start: they are summarised. */
  candidates(db: DbOrTx): Promise<SummaryCandidate[]> {
    return rawRows<SummaryCandidate>(
      db,
      sql`SELECT ec.chain_id, ec.computer_system_id AS system_id FROM event_chains ec
          WHERE (SELECT e.event_type FROM sif_events e WHERE e.event_chain_id = ec.id AND e.event_type IN ('01', '02')
                 ORDER BY e.seq DESC LIMIT 1) = '01'
          ORDER BY ec.id`,
    );
  },

  /** The chains of events summarised (as `candidates`) of these taxpayers' chains, in either environment. */
  candidatesOf(db: DbOrTx, taxpayerIds: string[]): Promise<SummaryCandidate[]> {
    return rawRows<SummaryCandidate>(
      db,
      sql`SELECT ec.chain_id, ec.computer_system_id AS system_id FROM event_chains ec JOIN chains c ON c.id = ec.chain_id
          WHERE c.taxpayer_id = ANY(${sql.param(taxpayerIds)}::uuid[])
            AND (SELECT e.event_type FROM sif_events e WHERE e.event_chain_id = ec.id AND e.event_type IN ('01', '02')
                 ORDER BY e.seq DESC LIMIT 1) = '01'
          ORDER BY ec.id`,
    );
  },

  /** Where the next summary of a chain of events starts: the end of its last summary, or its first event's time. */
  async nextStart(db: DbOrTx, eventChainId: string): Promise<Date | undefined> {
    const [row] = await rawRows<{ start: string | null }>(
      db,
      sql`SELECT coalesce(
            (SELECT period_end FROM sif_events WHERE event_chain_id = ${eventChainId} AND event_type = '10' ORDER BY seq DESC LIMIT 1),
            (SELECT generated_at FROM sif_events WHERE event_chain_id = ${eventChainId} ORDER BY seq LIMIT 1)) AS start`,
    );
    return row?.start ? new Date(row.start) : undefined;
  },

  /** The records a system generated in a taxpayer chain in [from, to), in chain order. */
  records(db: DbOrTx, chainId: string, systemId: string, from: Date, to: Date): Promise<PeriodRecords> {
    return periodRecords(db, sql`computer_system_id = ${systemId} AND`, chainId, from, to);
  },

  /** The records of a taxpayer chain generated in [from, to), whatever their system (an export's). */
  recordsOfChain(db: DbOrTx, chainId: string, from: Date, to: Date): Promise<PeriodRecords> {
    return periodRecords(db, sql``, chainId, from, to);
  },
};

async function periodRecords(db: DbOrTx, bySystem: SQL, chainId: string, from: Date, to: Date): Promise<PeriodRecords> {
  const inPeriod = sql`${bySystem} chain_id = ${chainId} AND generated_at >= ${from.toISOString()}
    AND generated_at < ${to.toISOString()}`;
  const mark = (order: 'ASC' | 'DESC') =>
    sql`SELECT json_build_object('issuerNif', issuer_nif, 'invoiceNumber', invoice_number, 'invoiceDate', invoice_date::text,
          'hash', hash) FROM invoices WHERE ${inPeriod} ORDER BY chain_seq ${sql.raw(order)} LIMIT 1`;
  const [row] = await rawRows<{
    first: RecordMark | null;
    last: RecordMark | null;
    altas: number;
    anulaciones: number;
    taxSum: string;
    totalSum: string;
  }>(
    db,
    sql`SELECT (${mark('ASC')}) AS first, (${mark('DESC')}) AS last,
          count(*) FILTER (WHERE record_type <> 'cancellation')::int AS altas,
          count(*) FILTER (WHERE record_type = 'cancellation')::int AS anulaciones,
          coalesce(sum(total_tax_amount) FILTER (WHERE record_type <> 'cancellation'), 0)::numeric(16, 2)::text AS tax_sum,
          coalesce(sum(total_amount) FILTER (WHERE record_type <> 'cancellation'), 0)::numeric(16, 2)::text AS total_sum
        FROM invoices WHERE ${inPeriod}`,
  );
  return { ...row, first: row.first ?? undefined, last: row.last ?? undefined };
}
