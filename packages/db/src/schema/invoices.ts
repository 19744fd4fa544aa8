import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  char,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import type { AuthorityStatus } from '@vf/core';
import { accounts } from './accounts';
import { computerSystems } from './systems';
import { taxpayers } from './taxpayers';

export type RecordType = 'registration' | 'correction' | 'cancellation';

export type { AuthorityStatus };

/**
 * A recipient or third party as given by the client: Spanish NIF, or a foreign identifier (IDOtro; `country` is absent
 * only for an EU VAT number).
 */
export type RecipientJson = { name: string; nif: string } | { name: string; country?: string; id_type: string; id: string };
export interface RecordWarningJson {
  field: string;
  code: string;
  message: string;
  authority_code?: number;
  explanation?: { es: string; en: string };
}
export interface InvoiceReferenceJson {
  invoice_number: string;
  invoice_date: string;
}
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    taxpayerId: uuid('taxpayer_id')
      .notNull()
      .references(() => taxpayers.id, { onDelete: 'restrict' }),
    computerSystemId: uuid('computer_system_id')
      .notNull()
      .references(() => computerSystems.id, { onDelete: 'restrict' }),
    /**
     * The chain (NIF + environment) this record belongs to. No foreign key: the append that writes the record locks and
     * swaps the chain's head row (docs/decisions/0024-record-links-made-by-the-statement-that-writes-them.md).
     */
    chainId: uuid('chain_id').notNull(),
    /** 1-based position in the chain. */
    chainSeq: integer('chain_seq').notNull(),
    /**
     * The invoice this record belongs to: the id of the invoice's first record, which is the public invoice id. Set by
     * the append's statement, not checked by a foreign key; removed with it by a trigger (decision 0024).
     */
    invoiceId: uuid('invoice_id').notNull(),
    /** Only on an invoice's first record: its latest record, whose state is the invoice's current state. */
    currentRecordId: uuid('current_record_id'),
    /**
     * Only on an invoice's first record once a later record is its current one: that record's total, type and
     * recipient NIF ('' without one), which lists filter and sort on through the first rows' indexes (migration 0027).
     * NULL while the first record is the current one: its own columns are then the current ones.
     */
    currentTotalAmount: numeric('current_total_amount', { precision: 14, scale: 2 }),
    currentInvoiceType: varchar('current_invoice_type', { length: 2 }),
    currentRecipientNif: text('current_recipient_nif'),
    /**
     * The same for the current record's status (migration 0030): set by the append that makes a correction or
     * cancellation current and kept in step by a trigger when that record's status changes. NULL while the first
     * record is the current one: its own `authority_status` is then the current status.
     */
    currentAuthorityStatus: text('current_authority_status').$type<AuthorityStatus>(),
    recordType: text('record_type').$type<RecordType>().notNull().default('registration'),
    /** Flags of the operations matrix (Subsanacion, RechazoPrevio S|X, SinRegistroPrevio), chosen at generation. */
    subsanacion: boolean('subsanacion').notNull().default(false),
    rechazoPrevio: char('rechazo_previo', { length: 1 }).$type<'S' | 'X'>(),
    sinRegistroPrevio: boolean('sin_registro_previo').notNull().default(false),
    cancellationReason: varchar('cancellation_reason', { length: 500 }),
    /** The validation warnings returned when this record was created. */
    warnings: jsonb('warnings')
      .$type<RecordWarningJson[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    invoiceNumber: varchar('invoice_number', { length: 60 }).notNull(),
    invoiceDate: date('invoice_date', { mode: 'string' }).notNull(),
    invoiceType: varchar('invoice_type', { length: 2 }).notNull(),
    description: varchar('description', { length: 500 }).notNull(),
    operationDate: date('operation_date', { mode: 'string' }),
    /** The first recipient (Destinatarios/IDDestinatario), the one lists and searches show. */
    recipient: jsonb('recipient').$type<RecipientJson>(),
    /** The recipients after the first, in order (Destinatarios holds up to 1,000). */
    additionalRecipients: jsonb('additional_recipients')
      .$type<RecipientJson[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** What the census said of the recipients when the registration asked `recipient_check=warn` (the API's answers). */
    recipientCheck: jsonb('recipient_check').$type<unknown[]>(),
    /** EmitidaPorTerceroODestinatario: D recipient, T third party; null when the issuer issued it. */
    issuedBy: char('issued_by', { length: 1 }).$type<'D' | 'T'>(),
    /** Tercero */
    thirdParty: jsonb('third_party').$type<RecipientJson>(),
    /** FacturaSimplificadaArt7273 = S */
    simplifiedArt7273: boolean('simplified_art_72_73').notNull().default(false),
    /** FacturaSinIdentifDestinatarioArt61d = S */
    withoutRecipientArt61d: boolean('without_recipient_art_61d').notNull().default(false),
    /** Cupon = S */
    coupon: boolean('coupon').notNull().default(false),
    rectificationType: char('rectification_type', { length: 1 }),
    rectifiedBaseAmount: numeric('rectified_base_amount', { precision: 14, scale: 2 }),
    rectifiedTaxAmount: numeric('rectified_tax_amount', { precision: 14, scale: 2 }),
    /** CuotaRecargoRectificado */
    rectifiedSurchargeAmount: numeric('rectified_surcharge_amount', { precision: 14, scale: 2 }),
    correctedInvoices: jsonb('corrected_invoices')
      .$type<InvoiceReferenceJson[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** FacturasSustituidas (F3) */
    substitutedInvoices: jsonb('substituted_invoices')
      .$type<InvoiceReferenceJson[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    totalAmount: numeric('total_amount', { precision: 14, scale: 2 }).notNull(),
    totalTaxAmount: numeric('total_tax_amount', { precision: 14, scale: 2 }).notNull(),
    /** Snapshots taken at generation: the values that were hashed and will be sent. */
    issuerNif: varchar('issuer_nif', { length: 9 }).notNull(),
    issuerName: varchar('issuer_name', { length: 120 }).notNull(),
    /**
     * The SistemaInformatico block captured when the record was generated, so a resend is byte-identical: kept once in
     * system_snapshots (migration 0031), written by the append statement beside the records naming it.
     */
    systemSnapshotId: uuid('system_snapshot_id').notNull(),
    isProduction: boolean('is_production').notNull(),
    /** The sandbox scenario the record was sent under (`rejected:1100`), only on a scenario chain; never part of the record. */
    sandboxScenario: text('sandbox_scenario'),
    /** FechaHoraHusoGenRegistro exactly as hashed, e.g. 2025-03-01T10:00:00+01:00. */
    generatedAtLiteral: text('generated_at_literal').notNull(),
    generatedAt: timestamp('generated_at', { withTimezone: true }).notNull(),
    previousInvoiceId: uuid('previous_invoice_id'),
    previousHash: char('previous_hash', { length: 64 }),
    hash: char('hash', { length: 64 }).notNull(),
    /**
     * Set (true) on a record whose QR code points at ValidarQRNoVerifactu: generated in NO VERI*FACTU, or a
     * cancellation repeating such a record's code; NULL otherwise, which costs a row nothing. The URL itself is
     * rebuilt from the record's columns (recordQrUrl of @vf/core, decision 0065), never kept.
     */
    qrNoVerifactu: boolean('qr_no_verifactu'),
    authorityStatus: text('authority_status').$type<AuthorityStatus>().notNull().default('queued'),
    authorityCode: integer('authority_code'),
    authorityMessage: text('authority_message'),
    authorityCsv: text('authority_csv'),
    sendAttempts: integer('send_attempts').notNull().default(0),
    lastError: text('last_error'),
    /** When the workers try this record next (a retry after a failure); null when nothing is planned. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** Why an `error` comes from the service's side (a ServiceCause of @vf/core), when no authority code says it. */
    errorCause: text('error_cause'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_chain_number_date_uq')
      .on(t.chainId, t.invoiceNumber, t.invoiceDate)
      .where(sql`${t.id} = ${t.invoiceId}`),
    unique('invoices_chain_seq_uq').on(t.chainId, t.chainSeq),
    index('invoices_invoice_seq_idx').on(t.invoiceId, t.chainSeq),
    index('invoices_account_created_idx').on(t.accountId, t.createdAt, t.id),
    // Lists sorted by date or number: the invoices' first records (the rows with current_record_id) of an account.
    index('invoices_account_date_idx')
      .on(t.accountId, t.invoiceDate, t.createdAt, t.id)
      .where(sql`${t.currentRecordId} IS NOT NULL`),
    // A date range sorted by number, read day by day (migration 0037): each day's invoices in number order.
    index('invoices_account_date_number_idx')
      .on(t.accountId, t.invoiceDate, sql`${t.invoiceNumber} COLLATE "C"`)
      .where(sql`${t.currentRecordId} IS NOT NULL`),
    // The number in the "C" collation (migration 0032): the sort by number and a LIKE prefix both read this one index.
    index('invoices_account_number_idx')
      .on(t.accountId, sql`${t.invoiceNumber} COLLATE "C"`, t.id)
      .where(sql`${t.currentRecordId} IS NOT NULL`),
    // The current total, type and recipient NIF of an account's invoices (lists filtered or sorted by them).
    index('invoices_account_total_idx')
      .on(t.accountId, sql`(coalesce(${t.currentTotalAmount}, ${t.totalAmount}))`, t.id)
      .where(sql`${t.currentRecordId} IS NOT NULL`),
    index('invoices_account_type_idx')
      .on(t.accountId, sql`(coalesce(${t.currentInvoiceType}, ${t.invoiceType}))`, t.createdAt, t.id)
      .where(sql`${t.currentRecordId} IS NOT NULL`),
    index('invoices_account_recipient_idx')
      .on(t.accountId, sql`(coalesce(${t.currentRecipientNif}, ${t.recipient} ->> 'nif'))`, t.createdAt, t.id)
      .where(sql`${t.currentRecordId} IS NOT NULL`),
    // Lists by a status most invoices are not in (migration 0030): the common final ones are left out. The migration
    // also INCLUDEs both status columns (counts read from the index alone), which Drizzle's builder cannot declare.
    index('invoices_account_status_idx')
      .on(t.accountId, sql`(coalesce(${t.currentAuthorityStatus}, ${t.authorityStatus}))`, t.createdAt, t.id)
      .where(
        sql`${t.currentRecordId} IS NOT NULL AND coalesce(${t.currentAuthorityStatus}, ${t.authorityStatus}) NOT IN ('accepted', 'kept')`,
      ),
    index('invoices_account_corrective_idx')
      .on(t.accountId, t.createdAt, t.id)
      .where(sql`${t.currentRecordId} IS NOT NULL AND coalesce(${t.currentInvoiceType}, ${t.invoiceType}) LIKE 'R%'`),
    index('invoices_number_trgm_idx')
      .using('gin', sql`${t.invoiceNumber} gin_trgm_ops`)
      .where(sql`${t.currentRecordId} IS NOT NULL`),
    // Looked up by taxpayer alone (the list's taxpayer filter, a corrective invoice's links, deleting a taxpayer): the
    // sender reads by chain and status (the next index).
    index('invoices_taxpayer_idx').on(t.taxpayerId),
    // Only the records the workers look for, those not at rest (migration 0036): their statements name the statuses
    // as literals, which a generic plan matches against this condition.
    index('invoices_chain_status_seq_idx')
      .on(t.chainId, t.authorityStatus, t.chainSeq)
      .where(sql`${t.authorityStatus} NOT IN ('accepted', 'accepted_with_warnings', 'rejected', 'kept')`),
    index('invoices_status_idx').on(t.authorityStatus),
  ],
);

/** Desglose lines; amounts are numeric, never floats. */
export const invoiceLines = pgTable(
  'invoice_lines',
  {
    /** Its record, inserted by the same statement; removed with it by a trigger (decision 0024). */
    invoiceId: uuid('invoice_id').notNull(),
    lineNo: integer('line_no').notNull(),
    taxType: varchar('tax_type', { length: 2 }).notNull(),
    regimeType: varchar('regime_type', { length: 2 }),
    operationType: varchar('operation_type', { length: 2 }).notNull(),
    baseAmount: numeric('base_amount', { precision: 14, scale: 2 }).notNull(),
    /** BaseImponibleACoste */
    costBaseAmount: numeric('cost_base_amount', { precision: 14, scale: 2 }),
    taxRate: numeric('tax_rate', { precision: 5, scale: 2 }),
    taxAmount: numeric('tax_amount', { precision: 14, scale: 2 }),
    surchargeRate: numeric('surcharge_rate', { precision: 5, scale: 2 }),
    surchargeAmount: numeric('surcharge_amount', { precision: 14, scale: 2 }),
  },
  // A line is only ever read with its record: no key of its own to generate and index per line.
  (t) => [primaryKey({ name: 'invoice_lines_pkey', columns: [t.invoiceId, t.lineNo] })],
);

/** Every status change with its time: the invoice's history. */
export const invoiceStatusEvents = pgTable(
  'invoice_status_events',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    /** Its record, inserted or updated by the same statement; removed with it by a trigger (decision 0024). */
    invoiceId: uuid('invoice_id').notNull(),
    status: text('status').$type<AuthorityStatus>().notNull(),
    code: integer('code'),
    message: text('message'),
    submissionId: uuid('submission_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Read by record, in order; one event is found by its record and id (its outbox row names both: decision 0069).
  (t) => [primaryKey({ name: 'invoice_status_events_pkey', columns: [t.invoiceId, t.id] })],
);
