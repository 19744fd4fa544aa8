import type { QueryResultRow } from 'pg';
import type { ChainRecordLine, ChainRecordRow, RecordSystem } from '../records/chain-record-row';
import type { AccountWithPlan } from './account-store';
import type { ChainHead } from './invoice-store';

/**
 * Every append to a chain (registration, correction, cancellation): two prepared statements per group of appends,
 * whatever the number of taxpayers in it, and no SQL text built per request
 * (docs/decisions/0007-group-commit-with-compare-and-swap.md). Raw SQL because each statement is one round trip (the
 * lookups folded into the read, every insert and the head swaps folded into the write), which Drizzle's builder
 * cannot express; every row is typed here, at the boundary.
 */

/** A pg Pool, or a client inside a transaction: both take a named (prepared) query. */
export interface Queryable {
  query<R extends QueryResultRow>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
}

/** A computer system a record may name: its SistemaInformatico columns and who may use it. */
export interface AppendSystem extends RecordSystem {
  id: string;
  /** A single-taxpayer system's one taxpayer, once a registration took it. */
  soleTaxpayerId: string | null;
}

/** Everything the registrations of one taxpayer need before their records can be built. */
export interface AppendContext {
  taxpayer: { id: string; nif: string; name: string; isProduction: boolean };
  chain: {
    id: string;
    length: number;
    lastInvoiceId: string | null;
    usage: { period: string | null; used: number; allowance: number };
  };
  previous: ChainHead | undefined;
  /** IndicadorMultiplesOT: the account keeps records for more than one taxpayer. */
  severalTaxpayers: boolean;
  /** The requested systems that belong to the account, by id. */
  systems: Map<string, AppendSystem>;
  /** `duplicateKey(number, date)` of the requested invoices the chain already has. */
  duplicates: Set<string>;
}

/**
 * One taxpayer's registrations to look up: whose they are and which systems and invoice numbers they name. Whose:
 * `accountId`, or `keyDigest`, the digest of the API key their request came with, which the read resolves to its
 * account (a key that names none: no account and no context).
 */
export type AppendLookup = ({ accountId: string; keyDigest?: undefined } | { accountId?: undefined; keyDigest: string }) & {
  taxpayerId: string;
  systemIds: string[];
  invoices: { invoiceNumber: string; invoiceDate: string }[];
};

export const duplicateKey = (invoiceNumber: string, invoiceDate: string) => `${invoiceDate} ${invoiceNumber}`;

const READ = {
  name: 'vf_append_read',
  text: `
WITH k AS (
  -- A lookup names its account, or the digest of the API key of its request: that key is checked here, in the read
  -- the registration makes anyway, instead of in a round trip of its own before it.
  SELECT k.n, coalesce(k.account_id, a.id) AS account_id, k.taxpayer_id, a.id AS a_id,
         pl.id AS plan_id, pl.name AS plan_name, pl.monthly_quota AS plan_monthly_quota
  FROM unnest($1::uuid[], $2::uuid[], $7::text[]) WITH ORDINALITY AS k(account_id, taxpayer_id, key_digest, n)
  LEFT JOIN accounts a ON a.api_key_digest = k.key_digest
  LEFT JOIN plans pl ON pl.id = a.plan_id
), heads AS (
  SELECT k.n, k.account_id, t.id AS taxpayer_id, t.nif, t.name, t.is_production,
         c.id AS chain_id, c.chain_length, c.last_invoice_id, c.usage_period, c.usage_used, c.usage_allowance
  FROM k
  JOIN taxpayers t ON t.id = k.taxpayer_id AND t.account_id = k.account_id
  JOIN chains c ON c.taxpayer_id = t.id AND c.is_production = t.is_production
), dups AS (
  -- One index probe per requested invoice (LATERAL ... LIMIT 1), never a scan of a whole chain.
  SELECT q.n, json_agg(json_build_array(q.invoice_number, q.invoice_date::text)) AS list
  FROM unnest($4::int[], $5::text[], $6::date[]) q(n, invoice_number, invoice_date)
  JOIN heads h ON h.n = q.n
  CROSS JOIN LATERAL (
    SELECT 1 FROM invoices d
    WHERE d.chain_id = h.chain_id AND d.invoice_number = q.invoice_number AND d.invoice_date = q.invoice_date AND d.id = d.invoice_id
    LIMIT 1) found
  GROUP BY q.n
)
SELECT k.n::int, k.a_id, k.plan_id, k.plan_name, k.plan_monthly_quota, h.nif, h.name, h.is_production, h.chain_id, h.chain_length, h.last_invoice_id, h.usage_period, h.usage_used, h.usage_allowance,
       p.id AS prev_id, p.hash AS prev_hash, p.issuer_nif AS prev_issuer_nif, p.invoice_number AS prev_invoice_number,
       p.invoice_date::text AS prev_invoice_date, p.generated_at AS prev_generated_at, p.generated_at_literal AS prev_generated_at_literal,
       EXISTS (SELECT 1 FROM taxpayers o WHERE o.account_id = h.account_id AND o.id <> h.taxpayer_id) AS several_taxpayers,
       (SELECT json_agg(json_build_array(s.id, s.account_id, s.vendor_name, s.vendor_nif, s.name, s.system_code, s.version,
                                         s.installation_number, s.only_supports_verifactu, s.supports_multiple_taxpayers,
                                         s.sole_taxpayer_id))
          FROM computer_systems s WHERE s.account_id = h.account_id AND s.id = ANY($3::uuid[])) AS systems,
       d.list AS duplicates
FROM k
LEFT JOIN heads h ON h.n = k.n
-- A LATERAL probe (LIMIT 1 keeps it from being flattened into a join): the statement is planned once per connection,
-- often while invoices is still nearly empty, and a join planned then scans the whole table on every later read.
LEFT JOIN LATERAL (
  SELECT i.id, i.hash, i.issuer_nif, i.invoice_number, i.invoice_date, i.generated_at, i.generated_at_literal
  FROM invoices i WHERE i.id = h.last_invoice_id LIMIT 1) p ON true
LEFT JOIN dups d ON d.n = k.n`,
};

// The fallback under contention and for quota (see the appender): the chain rows locked, in id order, until the
// transaction ends. FOR NO KEY UPDATE, the lock the head's own UPDATE takes: appends still wait for each other, but not
// for a transaction that only references the chain (a worker opening a message inserts a submission of the chain, whose
// foreign key holds the row FOR KEY SHARE until that transaction commits, which FOR UPDATE would wait for). A statement
// of its own: a row locked is read as it is now, but the rest of the same statement still sees the snapshot it started
// with (the previous record could be missing), so the heads are read by the next statement, which sees everything
// committed before the locks were granted.
const LOCK = {
  name: 'vf_append_lock',
  text: `
SELECT c.id
FROM unnest($1::uuid[], $2::uuid[], $3::text[]) k(account_id, taxpayer_id, key_digest)
LEFT JOIN accounts a ON a.api_key_digest = k.key_digest
JOIN taxpayers t ON t.id = k.taxpayer_id AND t.account_id = coalesce(k.account_id, a.id)
JOIN chains c ON c.taxpayer_id = t.id AND c.is_production = t.is_production
ORDER BY c.id
FOR NO KEY UPDATE OF c`,
};

type SystemTuple = [string, string, string, string, string, string, string, string, boolean, boolean, string | null];

/** Of an account, what an append needs: whose records they are and the plan whose quota they count against. */
export type AppendAccount = Pick<AccountWithPlan, 'id' | 'plan'>;

/** What the read found for one lookup: the account of a `keyDigest` lookup, and the context (none without the taxpayer). */
export interface AppendRead {
  account?: AppendAccount;
  context?: AppendContext;
}

interface ReadRow {
  n: number;
  a_id: string | null;
  plan_id: string;
  plan_name: string;
  plan_monthly_quota: number;
  chain_id: string | null;
  nif: string;
  name: string;
  is_production: boolean;
  chain_length: number;
  last_invoice_id: string | null;
  usage_period: string | null;
  usage_used: number;
  usage_allowance: number;
  prev_id: string | null;
  prev_hash: string | null;
  prev_issuer_nif: string | null;
  prev_invoice_number: string | null;
  prev_invoice_date: string | null;
  prev_generated_at: Date | null;
  prev_generated_at_literal: string | null;
  several_taxpayers: boolean;
  systems: SystemTuple[] | null;
  duplicates: [string, string][] | null;
}

/**
 * One round trip for any number of taxpayers: each one's taxpayer (owned by its account), current chain head,
 * systems and duplicates, and the account of a lookup by API key. The result has one entry per lookup, in order; its
 * context is undefined where the account has no such taxpayer. `lock`: first the chains' rows are locked (in id order)
 * until the caller's transaction ends.
 */
export async function readAppendContexts(q: Queryable, lookups: AppendLookup[], opts: { lock?: boolean } = {}): Promise<AppendRead[]> {
  const accountIds = lookups.map((l) => l.accountId ?? null);
  const keyDigests = lookups.map((l) => l.keyDigest ?? null);
  if (opts.lock) await q.query({ ...LOCK, values: [accountIds, lookups.map((l) => l.taxpayerId), keyDigests] });
  // Three arrays straight from the invoices (a batch's are whole validated invoices: no copy of each).
  const ns: number[] = [];
  const numbers: string[] = [];
  const dates: string[] = [];
  lookups.forEach((l, i) => {
    for (const inv of l.invoices) {
      ns.push(i + 1);
      numbers.push(inv.invoiceNumber);
      dates.push(inv.invoiceDate);
    }
  });
  const { rows } = await q.query<ReadRow>({
    ...READ,
    values: [
      accountIds,
      lookups.map((l) => l.taxpayerId),
      [...new Set(lookups.flatMap((l) => l.systemIds))],
      ns,
      numbers,
      dates,
      keyDigests,
    ],
  });
  const reads: AppendRead[] = lookups.map(() => ({}));
  for (const r of rows) {
    const read = reads[r.n - 1];
    if (r.a_id !== null) read.account = { id: r.a_id, plan: { id: r.plan_id, name: r.plan_name, monthlyQuota: r.plan_monthly_quota } };
    if (r.chain_id !== null) read.context = toContext(lookups[r.n - 1], r, r.chain_id);
  }
  return reads;
}

function toContext(lookup: AppendLookup, r: ReadRow, chainId: string): AppendContext {
  const systems = new Map<string, AppendSystem>();
  for (const [
    id,
    ,
    vendorName,
    vendorNif,
    name,
    systemCode,
    version,
    installationNumber,
    onlySupportsVerifactu,
    supportsMultipleTaxpayers,
    soleTaxpayerId,
  ] of r.systems ?? []) {
    systems.set(id, {
      id,
      vendorName,
      vendorNif,
      name,
      systemCode,
      version,
      installationNumber,
      onlySupportsVerifactu,
      supportsMultipleTaxpayers,
      soleTaxpayerId,
    });
  }
  return {
    taxpayer: { id: lookup.taxpayerId, nif: r.nif, name: r.name, isProduction: r.is_production },
    chain: {
      id: chainId,
      length: r.chain_length,
      lastInvoiceId: r.last_invoice_id,
      usage: { period: r.usage_period, used: r.usage_used, allowance: r.usage_allowance },
    },
    previous:
      r.prev_id &&
      r.prev_hash &&
      r.prev_issuer_nif &&
      r.prev_invoice_number &&
      r.prev_invoice_date &&
      r.prev_generated_at &&
      r.prev_generated_at_literal
        ? {
            id: r.prev_id,
            hash: r.prev_hash,
            issuerNif: r.prev_issuer_nif,
            invoiceNumber: r.prev_invoice_number,
            invoiceDate: r.prev_invoice_date,
            generatedAt: r.prev_generated_at,
            generatedAtLiteral: r.prev_generated_at_literal,
          }
        : undefined,
    severalTaxpayers: r.several_taxpayers,
    systems,
    duplicates: new Set((r.duplicates ?? []).map(([number, date]) => duplicateKey(number, date))),
  };
}

/** An Idempotency-Key answer stored in the same statement as the records it answers for (body already sealed). */
export interface SealedAnswer {
  accountId: string;
  key: string;
  owner: string;
  /**
   * Set for the answer of one item of a batch: `key` is then the item's own (derived from the batch's, never one a
   * client can send) and the answer is stored as a new row while `owner` still holds `parentKey`'s claim.
   */
  parentKey?: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The records to append to one chain, built on the head the read returned. */
export interface AppendWrite {
  chainId: string;
  taxpayerId: string;
  /** The head the records were built on: the chain's write is refused when it moved since. */
  expected: { length: number; lastInvoiceId: string | null };
  /** "YYYY-MM": the registrations (not corrections nor cancellations) count against the chain's allowance of this month. */
  period: string;
  /** Every system the records use. */
  systems: string[];
  /** Single-taxpayer systems the records use: the write takes each for this taxpayer, or fails if another has it. */
  soleSystems: string[];
  records: ChainRecordRow[];
  lines: ChainRecordLine[];
  answers: SealedAnswer[];
}

/**
 * Per chain, in the order of the writes. `appended`: its head was swapped and its records stored (`backlog`: its
 * records not yet put in a message). Not appended: its head moved, its taxpayer switched environment or its allowance
 * ran short since the read; nothing of it was stored.
 */
export type AppendResult = { appended: true; backlog: number } | { appended: false };

/** One column of the rows a write carries: its name, its SQL type and its value in a row of `write`. */
type Column<T> = readonly [name: string, type: string, value: (row: T, write: AppendWrite) => unknown];

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
  ['system_snapshot', 'jsonb', (r) => r.systemSnapshot],
  ['is_production', 'boolean', (r) => r.isProduction],
  ['generated_at_literal', 'text', (r) => r.generatedAtLiteral],
  ['generated_at', 'timestamptz', (r) => r.generatedAt],
  ['previous_invoice_id', 'uuid', (r) => r.previousInvoiceId],
  ['previous_hash', 'text', (r) => r.previousHash],
  ['hash', 'text', (r) => r.hash],
  ['qr_url', 'text', (r) => r.qrUrl],
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

// The rows come in as one parameter per column, zipped by ROWS FROM: an array literal read with the element type's
// own input function, or for jsonb one JSON array (escaping JSON texts into an array literal costs the API more than
// the rest of the statement's parameters together). No JSON document of rows to decode: PostgreSQL spent a quarter
// of the write on that (docs/scaling.md). $1 is the heads (one per chain, as JSON: each carries arrays of systems).
const RECORDS_FROM = 2;
const LINES_FROM = RECORDS_FROM + RECORD_COLUMNS.length;
const ANSWERS_FROM = LINES_FROM + LINE_COLUMNS.length;

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

const WRITE_CHAINS = `
WITH h AS (
  SELECT * FROM json_to_recordset($1::json) AS h(chain_id uuid, taxpayer_id uuid, expected_length integer, expected_last uuid,
    new_length integer, new_last uuid, count integer, period text, systems uuid[], sole_systems uuid[])
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
    AND (h.count = 0 OR (c.usage_period = h.period AND c.usage_used + h.count <= c.usage_allowance))
    AND EXISTS (SELECT 1 FROM taxpayers t WHERE t.id = h.taxpayer_id AND t.id = c.taxpayer_id AND t.is_production = c.is_production)
    -- A single-taxpayer system another taxpayer holds, or that another taxpayer of this write takes first: not swapped.
    AND NOT EXISTS (SELECT 1 FROM sole WHERE sole.id = ANY(h.sole_systems) AND sole.sole_taxpayer_id <> h.taxpayer_id)
    AND NOT EXISTS (SELECT 1 FROM h o WHERE o.taxpayer_id <> h.taxpayer_id AND o.sole_systems && h.sole_systems AND o.chain_id < h.chain_id)
    -- A system declared single-taxpayer since the read: not swapped either; the retry reads it again.
    AND NOT EXISTS (SELECT 1 FROM computer_systems s
                    WHERE s.id = ANY(h.systems) AND NOT s.supports_multiple_taxpayers AND NOT s.id = ANY(h.sole_systems))
  RETURNING c.id, c.chain_length
), bind AS (
  UPDATE computer_systems s SET sole_taxpayer_id = h.taxpayer_id
  FROM h
  WHERE h.chain_id IN (SELECT id FROM head) AND s.id = ANY(h.sole_systems) AND s.sole_taxpayer_id IS NULL
), r AS (
  SELECT * FROM ${zipped(RECORD_COLUMNS, RECORDS_FROM, 'r')}
  WHERE r.chain_id IN (SELECT id FROM head)
), current AS (
  -- A correction or cancellation becomes its invoice's current record (the first record is never in the same write).
  UPDATE invoices f SET current_record_id = r.id, updated_at = now() FROM r WHERE f.id = r.invoice_id AND r.id <> r.invoice_id
  RETURNING f.id AS invoice_id, r.id AS record_id
), records AS (
  -- No foreign key checks these rows' links (docs/decisions/0024-record-links-made-by-the-statement-that-writes-them.md):
  -- the chain's head row is locked and swapped above; a registration is its own invoice; any other record names the
  -- invoice row updated above, and a record whose invoice is missing stores NULL there, which NOT NULL refuses.
  INSERT INTO invoices (id, invoice_id, current_record_id, authority_status, ${names(RECORD_COLUMNS, 'id', 'invoice_id').join(', ')})
  SELECT r.id, CASE WHEN r.id = r.invoice_id THEN r.id ELSE (SELECT c.invoice_id FROM current c WHERE c.record_id = r.id) END,
    CASE WHEN r.id = r.invoice_id THEN r.id END, 'queued', ${selected(RECORD_COLUMNS, 'r', 'id', 'invoice_id').join(', ')}
  FROM r
  RETURNING id, chain_id, chain_seq
), lines AS (
  -- A write's lines are built with its records, each naming its own (chain-record-row.ts), and go in with them. No
  -- join to the records inserted: planned once per connection on a guess of ten rows a side, a join became a nested
  -- loop over 1,000 x 1,000 rows.
  INSERT INTO invoice_lines (${names(LINE_COLUMNS, 'chain_id').join(', ')})
  SELECT ${selected(LINE_COLUMNS, 'l', 'chain_id').join(', ')}
  FROM ${zipped(LINE_COLUMNS, LINES_FROM, 'l')}
  WHERE l.chain_id IN (SELECT id FROM head)
), events AS (
  INSERT INTO invoice_status_events (invoice_id, status) SELECT records.id, 'queued' FROM records ORDER BY records.chain_id, records.chain_seq
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
const WRITE = { name: 'vf_append_write', text: WRITE_CHAINS + WRITE_ANSWERS + WRITE_RESULT };
const WRITE_WITHOUT_ANSWERS = { name: 'vf_append_write_plain', text: WRITE_CHAINS + WRITE_RESULT };

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

/**
 * One round trip and one transaction of its own (or part of the caller's) for any number of chains: per chain, a
 * compare-and-swap on its head row that also counts the registrations against its allowance, then its records
 * (registrations, corrections, cancellations), lines, first status events and idempotent answers. A chain whose swap fails stores nothing; the others are not affected.
 * The head rows are locked only for this one statement.
 */
export async function appendChainRecords(q: Queryable, writes: AppendWrite[]): Promise<AppendResult[]> {
  const withAnswers = writes.some((w) => w.answers.length > 0);
  const { rows } = await q.query<{ chain_id: string; backlog: number }>({
    ...(withAnswers ? WRITE : WRITE_WITHOUT_ANSWERS),
    values: [
      JSON.stringify(
        writes.map((w) => {
          const last = w.records[w.records.length - 1];
          let count = 0;
          for (const r of w.records) if (r.recordType === 'registration') count += 1;
          return {
            chain_id: w.chainId,
            taxpayer_id: w.taxpayerId,
            expected_length: w.expected.length,
            expected_last: w.expected.lastInvoiceId,
            new_length: last.chainSeq,
            new_last: last.id,
            count,
            period: w.period,
            systems: w.systems,
            sole_systems: w.soleSystems,
          };
        }),
      ),
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
