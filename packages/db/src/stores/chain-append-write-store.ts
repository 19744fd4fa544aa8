import { createHash } from 'node:crypto';
import type { SistemaInformatico } from '@vf/core';
import type { ChainRecordLine, ChainRecordRow } from '../records/chain-record-shape';
import type { AppendResult, AppendWrite, SealedAnswer } from './chain-append-write';
import type { Queryable } from './queryable';

/**
 * The write of every append to a chain (registration, correction, cancellation), after its read
 * (chain-append-read-store.ts): two prepared statements per group of appends, whatever the number of taxpayers in it,
 * and no SQL text built per request (docs/decisions/0007-group-commit-with-compare-and-swap.md); for a request alone,
 * often the write only, on a read kept from the write before
 * (docs/decisions/0072-lone-registration-written-on-its-kept-read.md). Raw SQL because each
 * statement is one round trip (the lookups folded into the read, every insert and the head swaps folded into the
 * write), which Drizzle's builder cannot express; every row is typed here, at the boundary.
 */

// The columns an append writes (docs/decisions/0022-chain-rows-as-typed-columns-and-time-ordered-record-ids.md): a new
// column of invoices, invoice_lines or the answers goes in these lists, from which the statement and its parameters are
// both generated (below), so that they always agree.

/** One column of the rows a write carries: its name, its SQL type and its value in a row of `write`. */
type Column<T> = readonly [name: string, type: string, value: (row: T, write: AppendWrite) => unknown];

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

const RECORD_COLUMNS: Column<ChainRecordRow>[] = [
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

const LINE_COLUMNS: Column<ChainRecordLine>[] = [
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

const ANSWER_COLUMNS: Column<SealedAnswer>[] = [
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
function columnParameters<T>(columns: Column<T>[], writes: AppendWrite[], rowsOf: (w: AppendWrite) => T[]): string[] {
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

// The rows come in as one parameter per column, zipped by ROWS FROM: an array literal read with the element type's
// own input function, or for jsonb one JSON array (escaping JSON texts into an array literal costs the API more than
// the rest of the statement's parameters together). No JSON document of rows to decode: PostgreSQL spent a quarter
// of the write on that (docs/scaling.md). $1 is the heads (one per chain, as JSON: each carries arrays of systems).
const RECORDS_FROM = 2;
const LINES_FROM = RECORDS_FROM + RECORD_COLUMNS.length;
const ANSWERS_FROM = LINES_FROM + LINE_COLUMNS.length;

// Columns of the rows that the invoices table does not keep as such: the record's id and invoice come first, the
// SistemaInformatico block goes to system_snapshots.
const NOT_KEPT = ['id', 'invoice_id', 'system_snapshot'];

const names = (columns: Column<never>[], ...except: string[]) => columns.flatMap(([name]) => (except.includes(name) ? [] : [name]));
const zipped = (columns: Column<never>[], from: number, alias: string) => {
  const functions = columns.map(([, type], i) =>
    type === 'jsonb' ? `jsonb_array_elements($${from + i}::jsonb)` : `unnest($${from + i}::${type}[])`,
  );
  return `ROWS FROM (${functions.join(', ')}) AS ${alias}(${names(columns).join(', ')})`;
};
// A JSON null element is jsonb 'null', stored as SQL NULL (a record without a recipient has none).
const selected = (columns: Column<never>[], alias: string, ...except: string[]) =>
  columns.flatMap(([name, type]) =>
    except.includes(name) ? [] : [type === 'jsonb' ? `nullif(${alias}.${name}, 'null')` : `${alias}.${name}`],
  );

// A write built on a kept read (AssumedRead) checks, with its head, what that read would have found, looked up as the
// read looks it up (chain-append-read-store.ts): index probes, the invoices one a LATERAL probe that stays one whatever
// the statistics were when the statement was planned. Only in the statements for such writes (a head without an
// account_id is a write on a read of its own): the plain ones do not start these parts.
const HOLDS = `
), holds AS (
  SELECT h.chain_id FROM h WHERE h.account_id IS NULL
  UNION ALL
  SELECT h.chain_id FROM h
  JOIN taxpayers t ON t.id = h.taxpayer_id AND t.account_id = h.account_id AND t.nif = h.nif AND t.name = h.name
  LEFT JOIN accounts a ON a.api_key_digest = h.key_digest
  WHERE (h.key_digest IS NULL OR (a.id = h.account_id AND a.plan_id = h.plan_id AND a.recipient_check IS NULL))
    AND EXISTS (SELECT 1 FROM taxpayers o WHERE o.account_id = h.account_id AND o.id <> h.taxpayer_id) = h.several_taxpayers
    AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(h.system_rows) e WHERE NOT EXISTS (
      SELECT 1 FROM computer_systems s WHERE s.id = (e ->> 0)::uuid AND s.account_id = h.account_id
        AND jsonb_build_array(s.id, s.vendor_name, s.vendor_nif, s.name, s.system_code, s.version, s.installation_number,
                              s.only_supports_verifactu, s.supports_multiple_taxpayers) = e))
    AND NOT EXISTS (SELECT 1 FROM unnest(h.invoice_numbers, h.invoice_dates) q(invoice_number, invoice_date)
      CROSS JOIN LATERAL (
        SELECT 1 FROM invoices d
        WHERE d.chain_id = h.chain_id AND d.invoice_number = q.invoice_number AND d.invoice_date = q.invoice_date
          AND d.id = d.invoice_id
        LIMIT 1) found)`;

// The heads' columns, and what a write on a kept read assumed (AssumedRead).
const HEAD = `chain_id uuid, taxpayer_id uuid, expected_length integer, expected_last uuid,
    expected_mode_version integer, new_length integer, new_last uuid, count integer, period text, systems uuid[], sole_systems uuid[]`;
const HEAD_ASSUMED = `${HEAD},
    account_id uuid, key_digest text, plan_id text, nif text, name text, several_taxpayers boolean, system_rows jsonb,
    invoice_numbers text[], invoice_dates date[]`;
const HOLD = '\n    AND c.id IN (SELECT chain_id FROM holds)';

const writeChains = (assumed: boolean) => `
WITH h AS (
  SELECT * FROM json_to_recordset($1::json) AS h(${assumed ? HEAD_ASSUMED : HEAD})${assumed ? HOLDS : ''}
), locked AS (
  -- Chain rows locked in id order: two processes writing overlapping sets of chains never wait for each other in a cycle.
  -- NO KEY UPDATE, as the update below: a message being opened for the chain (its submission's foreign key) is not waited for.
  SELECT c.id FROM chains c WHERE c.id IN (SELECT chain_id FROM h) ORDER BY c.id FOR NO KEY UPDATE
), sole AS (
  -- The single-taxpayer systems used, locked and so read as they are now (a taxpayer that took one meanwhile is seen).
  SELECT s.id, s.sole_taxpayer_id FROM computer_systems s
  WHERE s.id IN (SELECT unnest(h.sole_systems) FROM h) ORDER BY s.id FOR UPDATE
), head AS (
  UPDATE chains c SET chain_length = h.new_length, last_invoice_id = h.new_last, usage_used = c.usage_used + h.count
  FROM h
  WHERE c.id = h.chain_id AND c.id IN (SELECT id FROM locked)
    AND c.chain_length = h.expected_length AND c.last_invoice_id IS NOT DISTINCT FROM h.expected_last
    -- The mode changed since the read: the records were built (and signed, or not) for a mode no longer in force.
    AND c.mode_version = h.expected_mode_version
    AND (h.count = 0 OR (c.usage_period = h.period AND c.usage_used + h.count <= c.usage_allowance))
    AND EXISTS (SELECT 1 FROM taxpayers t WHERE t.id = h.taxpayer_id AND t.id = c.taxpayer_id AND t.is_production = c.is_production)
    -- A single-taxpayer system another taxpayer holds, or that another taxpayer of this write takes first: not swapped.
    AND NOT EXISTS (SELECT 1 FROM sole WHERE sole.id = ANY(h.sole_systems) AND sole.sole_taxpayer_id <> h.taxpayer_id)
    AND NOT EXISTS (SELECT 1 FROM h o WHERE o.taxpayer_id <> h.taxpayer_id AND o.sole_systems && h.sole_systems AND o.chain_id < h.chain_id)
    -- A system declared single-taxpayer since the read: not swapped either; the retry reads it again.
    AND NOT EXISTS (SELECT 1 FROM computer_systems s
                    WHERE s.id = ANY(h.systems) AND NOT s.supports_multiple_taxpayers AND NOT s.id = ANY(h.sole_systems))${assumed ? HOLD : ''}
  RETURNING c.id, c.chain_length
), bind AS (
  UPDATE computer_systems s SET sole_taxpayer_id = h.taxpayer_id
  FROM h
  WHERE h.chain_id IN (SELECT id FROM head) AND s.id = ANY(h.sole_systems) AND s.sole_taxpayer_id IS NULL
), r AS (
  SELECT * FROM ${zipped(RECORD_COLUMNS, RECORDS_FROM, 'r')}
  WHERE r.chain_id IN (SELECT id FROM head)
), current AS (
  -- A correction or cancellation becomes its invoice's current record (the first record is never in the same write),
  -- and the first row keeps what lists filter and sort on of it (migrations 0027 and 0032: its status as inserted below).
  UPDATE invoices f SET current_record_id = r.id, current_total_amount = r.total_amount, current_invoice_type = r.invoice_type,
    current_recipient_nif = coalesce(r.recipient ->> 'nif', ''), current_authority_status = 'queued', updated_at = now()
  FROM r WHERE f.id = r.invoice_id AND r.id <> r.invoice_id
  RETURNING f.id AS invoice_id, r.id AS record_id
), snapshots AS (
  -- Each SistemaInformatico block kept once (migration 0031): a block not seen before goes in with its first records;
  -- one already kept is left as it is (a block never changes, its id is its content's digest). Written by the statement
  -- that writes the records naming it, as their links are (below): no foreign key is checked per record.
  INSERT INTO system_snapshots (id, snapshot)
  SELECT DISTINCT ON (r.system_snapshot_id) r.system_snapshot_id, r.system_snapshot FROM r
  ON CONFLICT (id) DO NOTHING
), records AS (
  -- No foreign key checks these rows' links (docs/decisions/0024-record-links-made-by-the-statement-that-writes-them.md):
  -- the chain's head row is locked and swapped above; a registration is its own invoice; any other record names the
  -- invoice row updated above, and a record whose invoice is missing stores NULL there, which NOT NULL refuses.
  INSERT INTO invoices (id, invoice_id, current_record_id, authority_status, ${names(RECORD_COLUMNS, ...NOT_KEPT).join(', ')})
  SELECT r.id, CASE WHEN r.id = r.invoice_id THEN r.id ELSE (SELECT c.invoice_id FROM current c WHERE c.record_id = r.id) END,
    CASE WHEN r.id = r.invoice_id THEN r.id END, 'queued', ${selected(RECORD_COLUMNS, 'r', ...NOT_KEPT).join(', ')}
  FROM r
  RETURNING id, chain_id, chain_seq, account_id
), lines AS (
  -- A write's lines are built with its records, each naming its own (chain-record-row.ts), and go in with them. No
  -- join to the records inserted: planned once per connection on a guess of ten rows a side, a join became a nested
  -- loop over 1,000 x 1,000 rows.
  INSERT INTO invoice_lines (${names(LINE_COLUMNS, 'chain_id').join(', ')})
  SELECT ${selected(LINE_COLUMNS, 'l', 'chain_id').join(', ')}
  FROM ${zipped(LINE_COLUMNS, LINES_FROM, 'l')}
  WHERE l.chain_id IN (SELECT id FROM head)
), outbox AS (
  -- A record's first status is implied by the record, at its creation time: no status event is written for it
  -- (decision 0065). An account with webhook endpoints gets the outbox row the event's insert gave it, naming the record.
  INSERT INTO webhook_outbox (record_id)
  SELECT records.id FROM records
  WHERE EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.account_id = records.account_id)
  ORDER BY records.chain_id, records.chain_seq
)`;

const WRITE_ANSWERS = `, a AS (
  SELECT * FROM ${zipped(ANSWER_COLUMNS, ANSWERS_FROM, 'a')}
  WHERE a.chain_id IN (SELECT id FROM head)
), answers AS (
  UPDATE idempotency_keys k SET state = 'completed', response_status = a.status, response_headers = a.headers, response_body = a.body
  FROM a
  WHERE a.parent_key IS NULL AND k.account_id = a.account_id AND k.key = a.key AND k.owner = a.owner AND k.state = 'running'
), item_answers AS (
  -- A batch item's answer: a row of its own, for as long as the batch's key is kept, while the batch's claim is held.
  INSERT INTO idempotency_keys (account_id, key, fingerprint, state, owner, locked_until, expires_at, response_status,
    response_headers, response_body)
  SELECT a.account_id, a.key, p.fingerprint, 'completed', a.owner, now(), p.expires_at, a.status, a.headers, a.body
  FROM a JOIN idempotency_keys p ON p.account_id = a.account_id AND p.key = a.parent_key AND p.owner = a.owner AND p.state = 'running'
  ON CONFLICT (account_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, owner = EXCLUDED.owner,
    locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at, created_at = now(),
    response_status = EXCLUDED.response_status, response_headers = EXCLUDED.response_headers, response_body = EXCLUDED.response_body
  WHERE idempotency_keys.expires_at <= now()
)`;

const WRITE_RESULT = `
SELECT head.id AS chain_id, head.chain_length - coalesce(s.sent_through_seq, 0) AS backlog
FROM head LEFT JOIN send_states s ON s.chain_id = head.id`;

// Without Idempotency-Key answers the statement leaves their parts out: PostgreSQL starts the executor for every part
// of a plan on each execution, empty or not, and for a lone registration those parts cost about a fifth of the write.
const WRITE = { name: 'vf_append_write', text: writeChains(false) + WRITE_ANSWERS + WRITE_RESULT };
const WRITE_WITHOUT_ANSWERS = { name: 'vf_append_write_plain', text: writeChains(false) + WRITE_RESULT };
const WRITE_ASSUMED = { name: 'vf_append_write_assumed', text: writeChains(true) + WRITE_ANSWERS + WRITE_RESULT };
const WRITE_ASSUMED_WITHOUT_ANSWERS = { name: 'vf_append_write_assumed_plain', text: writeChains(true) + WRITE_RESULT };

/** The registrations among a write's records: what its swap counts against the chain's allowance. */
export function registrationCount(w: AppendWrite): number {
  let count = 0;
  for (const r of w.records) if (r.recordType === 'registration') count += 1;
  return count;
}

/** The head of one write as the statement's first parameter reads it, with what a kept read assumed. */
function headOf(w: AppendWrite) {
  const last = w.records[w.records.length - 1];
  const head = {
    chain_id: w.chainId,
    taxpayer_id: w.taxpayerId,
    expected_length: w.expected.length,
    expected_last: w.expected.lastInvoiceId,
    expected_mode_version: w.expected.modeVersion,
    new_length: last.chainSeq,
    new_last: last.id,
    count: registrationCount(w),
    period: w.period,
    systems: w.systems,
    sole_systems: w.soleSystems,
  };
  const a = w.assumed;
  if (!a) return head;
  return {
    ...head,
    account_id: a.accountId,
    key_digest: a.keyDigest ?? null,
    plan_id: a.planId,
    nif: a.nif,
    name: a.name,
    several_taxpayers: a.severalTaxpayers,
    system_rows: a.systems.map((s) => [
      s.id,
      s.vendorName,
      s.vendorNif,
      s.name,
      s.systemCode,
      s.version,
      s.installationNumber,
      s.onlySupportsVerifactu,
      s.supportsMultipleTaxpayers,
    ]),
    invoice_numbers: a.invoices.map((i) => i.invoiceNumber),
    invoice_dates: a.invoices.map((i) => i.invoiceDate),
  };
}

/**
 * One round trip and one transaction of its own (or part of the caller's) for any number of chains: per chain, a
 * compare-and-swap on its head row that also counts the registrations against its allowance, then its records
 * (registrations, corrections, cancellations), lines, first status events and idempotent answers. A chain whose swap fails
 * (or whose write's assumed read no longer holds) stores nothing; the others are not affected.
 * The head rows are locked only for this one statement.
 */
export async function appendChainRecords(q: Queryable, writes: AppendWrite[]): Promise<AppendResult[]> {
  const withAnswers = writes.some((w) => w.answers.length > 0);
  const assumed = writes.some((w) => w.assumed !== undefined);
  const { rows } = await q.query<{ chain_id: string; backlog: number }>({
    ...(assumed ? (withAnswers ? WRITE_ASSUMED : WRITE_ASSUMED_WITHOUT_ANSWERS) : withAnswers ? WRITE : WRITE_WITHOUT_ANSWERS),
    values: [
      JSON.stringify(writes.map(headOf)),
      ...columnParameters(RECORD_COLUMNS, writes, (w) => w.records),
      ...columnParameters(LINE_COLUMNS, writes, (w) => w.lines),
      ...(withAnswers ? columnParameters(ANSWER_COLUMNS, writes, (w) => w.answers) : []),
    ],
  });
  const backlogs = new Map(rows.map((r) => [r.chain_id, r.backlog]));
  return writes.map((w) => {
    const backlog = backlogs.get(w.chainId);
    return backlog === undefined ? { appended: false } : { appended: true, backlog };
  });
}
