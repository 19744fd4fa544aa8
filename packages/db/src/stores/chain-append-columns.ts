import { createHash } from 'node:crypto';
import type { SistemaInformatico } from '@vf/core';
import type { ChainRecordLine, ChainRecordRow } from '../records/chain-record-shape';
import type { AppendWrite, SealedAnswer } from './chain-append-write';

// The columns an append writes (docs/decisions/0022-chain-rows-as-typed-columns-and-time-ordered-record-ids.md): a new
// column of invoices, invoice_lines or the answers goes in these lists, from which the statement and its parameters are
// both generated (chain-append-write-store.ts), so that they always agree.

/** One column of the rows a write carries: its name, its SQL type and its value in a row of `write`. */
export type Column<T> = readonly [name: string, type: string, value: (row: T, write: AppendWrite) => unknown];

// A record's block is the same object for every record built from one read of its system (chain-record-row.ts,
// frozen): its digest is computed once per object.
const ids = new WeakMap<SistemaInformatico, string>();

/**
 * The id a SistemaInformatico block is kept under in system_snapshots (migration 0031): the first 128 bits of the
 * SHA-256 of its JSON, as a UUID. Equal blocks get one id; a block named differently (its keys in another order) is
 * merely kept twice.
 */
function systemSnapshotId(snapshot: SistemaInformatico): string {
  const known = ids.get(snapshot);
  if (known !== undefined) return known;
  const hex = createHash('sha256').update(JSON.stringify(snapshot)).digest('hex');
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  ids.set(snapshot, id);
  return id;
}

export const RECORD_COLUMNS: Column<ChainRecordRow>[] = [
  ['id', 'uuid', (r) => r.id],
  ['invoice_id', 'uuid', (r) => r.invoiceId],
  ['chain_id', 'uuid', (_, w) => w.chainId],
  ['account_id', 'uuid', (r) => r.accountId],
  ['taxpayer_id', 'uuid', (r) => r.taxpayerId],
  ['computer_system_id', 'uuid', (r) => r.computerSystemId],
  ['chain_seq', 'integer', (r) => r.chainSeq],
  ['record_type', 'text', (r) => r.recordType],
  ['subsanacion', 'boolean', (r) => r.subsanacion],
  ['rechazo_previo', 'text', (r) => r.rechazoPrevio],
  ['sin_registro_previo', 'boolean', (r) => r.sinRegistroPrevio],
  ['cancellation_reason', 'text', (r) => r.cancellationReason],
  ['warnings', 'jsonb', (r) => r.warnings],
  ['invoice_number', 'text', (r) => r.invoiceNumber],
  ['invoice_date', 'date', (r) => r.invoiceDate],
  ['invoice_type', 'text', (r) => r.invoiceType],
  ['description', 'text', (r) => r.description],
  ['operation_date', 'date', (r) => r.operationDate],
  ['recipient', 'jsonb', (r) => r.recipient],
  ['additional_recipients', 'jsonb', (r) => r.additionalRecipients],
  ['issued_by', 'text', (r) => r.issuedBy],
  ['third_party', 'jsonb', (r) => r.thirdParty],
  ['simplified_art_72_73', 'boolean', (r) => r.simplifiedArt7273],
  ['without_recipient_art_61d', 'boolean', (r) => r.withoutRecipientArt61d],
  ['coupon', 'boolean', (r) => r.coupon],
  ['rectification_type', 'text', (r) => r.rectificationType],
  ['rectified_base_amount', 'numeric', (r) => r.rectifiedBaseAmount],
  ['rectified_tax_amount', 'numeric', (r) => r.rectifiedTaxAmount],
  ['rectified_surcharge_amount', 'numeric', (r) => r.rectifiedSurchargeAmount],
  ['corrected_invoices', 'jsonb', (r) => r.correctedInvoices],
  ['substituted_invoices', 'jsonb', (r) => r.substitutedInvoices],
  ['total_amount', 'numeric', (r) => r.totalAmount],
  ['total_tax_amount', 'numeric', (r) => r.totalTaxAmount],
  ['issuer_nif', 'text', (r) => r.issuerNif],
  ['issuer_name', 'text', (r) => r.issuerName],
  // The block goes to system_snapshots once (migration 0031); the record keeps the id its content names.
  ['system_snapshot', 'jsonb', (r) => r.systemSnapshot],
  ['system_snapshot_id', 'uuid', (r) => systemSnapshotId(r.systemSnapshot)],
  ['is_production', 'boolean', (r) => r.isProduction],
  ['generated_at_literal', 'text', (r) => r.generatedAtLiteral],
  ['generated_at', 'timestamptz', (r) => r.generatedAt],
  ['previous_invoice_id', 'uuid', (r) => r.previousInvoiceId],
  ['previous_hash', 'text', (r) => r.previousHash],
  ['hash', 'text', (r) => r.hash],
  // The QR URL is rebuilt from the columns above (decision 0065): only whether it is NO VERI*FACTU's is kept.
  ['qr_no_verifactu', 'boolean', (r) => (r.qrNoVerifactu ? true : null)],
  ['sandbox_scenario', 'text', (r) => r.sandboxScenario ?? null],
];

export const LINE_COLUMNS: Column<ChainRecordLine>[] = [
  ['chain_id', 'uuid', (_, w) => w.chainId],
  ['invoice_id', 'uuid', (l) => l.invoiceId],
  ['line_no', 'integer', (l) => l.lineNo],
  ['tax_type', 'text', (l) => l.taxType],
  ['regime_type', 'text', (l) => l.regimeType],
  ['operation_type', 'text', (l) => l.operationType],
  ['base_amount', 'numeric', (l) => l.baseAmount],
  ['cost_base_amount', 'numeric', (l) => l.costBaseAmount],
  ['tax_rate', 'numeric', (l) => l.taxRate],
  ['tax_amount', 'numeric', (l) => l.taxAmount],
  ['surcharge_rate', 'numeric', (l) => l.surchargeRate],
  ['surcharge_amount', 'numeric', (l) => l.surchargeAmount],
];

export const ANSWER_COLUMNS: Column<SealedAnswer>[] = [
  ['chain_id', 'uuid', (_, w) => w.chainId],
  ['account_id', 'uuid', (a) => a.accountId],
  ['key', 'text', (a) => a.key],
  ['parent_key', 'text', (a) => a.parentKey ?? null],
  ['owner', 'uuid', (a) => a.owner],
  ['status', 'integer', (a) => a.status],
  ['headers', 'jsonb', (a) => a.headers],
  ['body', 'text', (a) => a.body],
];

// Types whose text never holds a quote, a backslash, a comma, a brace or a space: written bare in an array literal.
const BARE = new Set(['uuid', 'integer', 'boolean', 'date', 'numeric']);
const SPECIAL = /["\\]/;
const SPECIALS = /["\\]/g;

/**
 * Per column, its value in every row of every write, in write order: one JSON array for jsonb, otherwise one array
 * literal. Written here rather than by pg (which quotes and escapes every element with two regular expressions): the
 * types are known, so most elements need neither, and text is escaped only when it holds a quote or a backslash. A
 * value that is the very object of the row before (the generation time and the system snapshot shared by a write's
 * records) is written out once and repeated. A text column without NULL is joined with its quotes between the
 * elements, so that no quoted copy of each element is made (about a dozen per record).
 */
export function columnParameters<T>(columns: Column<T>[], writes: AppendWrite[], rowsOf: (w: AppendWrite) => T[]): string[] {
  let count = 0;
  for (const w of writes) count += rowsOf(w).length;
  return columns.map(([, type, value]) => {
    const jsonb = type === 'jsonb';
    const bare = BARE.has(type);
    // A text column's NULL is left undefined until the column is known to have one.
    const elements: (string | undefined)[] = new Array(count);
    let n = 0;
    let last: unknown;
    let written = '';
    let nulls = false;
    for (const w of writes) {
      for (const row of rowsOf(w)) {
        const v = value(row, w);
        if (v === last && typeof v === 'object' && v !== null) elements[n++] = written;
        // An empty list is what four of the jsonb columns hold in most records.
        else if (jsonb) elements[n++] = written = Array.isArray(v) && v.length === 0 ? '[]' : (JSON.stringify(v) ?? 'null');
        else if (v === null || v === undefined) {
          elements[n++] = bare ? 'NULL' : undefined;
          nulls = true;
        } else if (v instanceof Date) elements[n++] = written = v.toISOString();
        else if (bare) elements[n++] = String(v);
        else {
          const text = String(v);
          elements[n++] = SPECIAL.test(text) ? text.replace(SPECIALS, '\\$&') : text;
        }
        last = v;
      }
    }
    if (jsonb) return `[${elements.join(',')}]`;
    if (bare || count === 0) return `{${elements.join(',')}}`;
    if (!nulls) return `{"${elements.join('","')}"}`;
    for (let i = 0; i < count; i++) elements[i] = elements[i] === undefined ? 'NULL' : `"${elements[i]}"`;
    return `{${elements.join(',')}}`;
  });
}
