import type { RecordSystem } from '../records/chain-record-shape';
import { invoices, type InvoiceReferenceJson, type RecipientJson } from '../schema';
import type { AccountWithPlan } from './account-store';
import type { ChainHead } from './invoice-store';
import type { Queryable } from './queryable';

/**
 * The read of every append to a chain (registration, correction, cancellation), before its write
 * (chain-append-write-store.ts): two prepared statements per group of appends, whatever the number of taxpayers in it,
 * and no SQL text built per request (docs/decisions/0007-group-commit-with-compare-and-swap.md). Raw SQL because each
 * statement is one round trip (the lookups folded into the read, every insert and the head swaps folded into the
 * write), which Drizzle's builder cannot express; every row is typed here, at the boundary.
 */

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
    /** The taxpayer's operating mode in this environment as stored (migration 0024), and its version. */
    mode: { mode: 'verifactu' | 'no_verifactu'; verifactuUntil: string | null; since: Date; version: number };
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
  /** The taxpayer's scenario chain instead of its chain (docs/decisions/0040-scenario-chains-apart.md). */
  scenario?: boolean;
};

export const duplicateKey = (invoiceNumber: string, invoiceDate: string) => `${invoiceDate} ${invoiceNumber}`;

const READ = {
  name: 'vf_append_read',
  text: `
WITH k AS (
  -- A lookup names its account, or the digest of the API key of its request: that key is checked here, in the read
  -- the registration makes anyway, instead of in a round trip of its own before it.
  SELECT k.n, coalesce(k.account_id, a.id) AS account_id, k.taxpayer_id, k.scenario, a.id AS a_id,
         pl.id AS plan_id, pl.name AS plan_name, pl.monthly_quota AS plan_monthly_quota, a.recipient_check AS a_recipient_check
  FROM unnest($1::uuid[], $2::uuid[], $7::text[], $8::boolean[]) WITH ORDINALITY AS k(account_id, taxpayer_id, key_digest, scenario, n)
  LEFT JOIN accounts a ON a.api_key_digest = k.key_digest
  LEFT JOIN plans pl ON pl.id = a.plan_id
), heads AS (
  SELECT k.n, k.account_id, t.id AS taxpayer_id, t.nif, t.name, t.is_production,
         c.id AS chain_id, c.chain_length, c.last_invoice_id, c.usage_period, c.usage_used, c.usage_allowance,
         c.operating_mode, c.verifactu_until::text AS verifactu_until, c.mode_since, c.mode_version
  FROM k
  JOIN taxpayers t ON t.id = k.taxpayer_id AND t.account_id = k.account_id
  JOIN chains c ON c.taxpayer_id = t.id AND c.is_production = t.is_production AND c.scenario = k.scenario
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
SELECT k.n::int, k.a_id, k.a_recipient_check, k.plan_id, k.plan_name, k.plan_monthly_quota, h.nif, h.name, h.is_production, h.chain_id, h.chain_length, h.last_invoice_id, h.usage_period, h.usage_used, h.usage_allowance,
       h.operating_mode, h.verifactu_until, h.mode_since, h.mode_version,
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
FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::boolean[]) k(account_id, taxpayer_id, key_digest, scenario)
LEFT JOIN accounts a ON a.api_key_digest = k.key_digest
JOIN taxpayers t ON t.id = k.taxpayer_id AND t.account_id = coalesce(k.account_id, a.id)
JOIN chains c ON c.taxpayer_id = t.id AND c.is_production = t.is_production AND c.scenario = k.scenario
ORDER BY c.id
FOR NO KEY UPDATE OF c`,
};

type SystemTuple = [string, string, string, string, string, string, string, string, boolean, boolean, string | null];

/** Of an account, what an append needs: whose records they are and the plan whose quota they count against. */
export type AppendAccount = Pick<AccountWithPlan, 'id' | 'plan'>;

/** What the read found for one lookup: the account of a `keyDigest` lookup, and the context (none without the taxpayer). */
export interface AppendRead {
  account?: AppendAccount;
  /** The default `recipient_check` of the account a `keyDigest` lookup found, if it has one. */
  recipientCheck?: 'warn' | 'refuse';
  context?: AppendContext;
}

interface ReadRow {
  n: number;
  a_id: string | null;
  a_recipient_check: 'warn' | 'refuse' | null;
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
  operating_mode: 'verifactu' | 'no_verifactu';
  verifactu_until: string | null;
  mode_since: Date;
  mode_version: number;
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
  const scenarios = lookups.map((l) => l.scenario === true);
  if (opts.lock) await q.query({ ...LOCK, values: [accountIds, lookups.map((l) => l.taxpayerId), keyDigests, scenarios] });
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
      scenarios,
    ],
  });
  const reads: AppendRead[] = lookups.map(() => ({}));
  for (const r of rows) {
    const read = reads[r.n - 1];
    if (r.a_id !== null) read.account = { id: r.a_id, plan: { id: r.plan_id, name: r.plan_name, monthlyQuota: r.plan_monthly_quota } };
    if (r.a_recipient_check !== null) read.recipientCheck = r.a_recipient_check;
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
      mode: { mode: r.operating_mode, verifactuUntil: r.verifactu_until, since: r.mode_since, version: r.mode_version },
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

/** The invoice columns that carry the validated request (besides scalars stored as they are). */
export interface StoredInvoiceContent {
  taxpayerId: string;
  computerSystemId: string;
  invoiceNumber: string;
  invoiceDate: string;
  invoiceType: string;
  description: string;
  operationDate: string | null;
  recipient: RecipientJson | null;
  additionalRecipients: RecipientJson[];
  issuedBy: 'D' | 'T' | null;
  thirdParty: RecipientJson | null;
  simplifiedArt7273: boolean;
  withoutRecipientArt61d: boolean;
  coupon: boolean;
  rectificationType: string | null;
  rectifiedBaseAmount: string | null;
  rectifiedTaxAmount: string | null;
  rectifiedSurchargeAmount: string | null;
  correctedInvoices: InvoiceReferenceJson[];
  substitutedInvoices: InvoiceReferenceJson[];
  totalAmount: string;
  totalTaxAmount: string;
}

/** The invoices' columns StoredInvoiceContent is read from, for a select's column map. */
export const STORED_INVOICE_CONTENT_COLUMNS = {
  taxpayerId: invoices.taxpayerId,
  computerSystemId: invoices.computerSystemId,
  invoiceNumber: invoices.invoiceNumber,
  invoiceDate: invoices.invoiceDate,
  invoiceType: invoices.invoiceType,
  description: invoices.description,
  operationDate: invoices.operationDate,
  recipient: invoices.recipient,
  additionalRecipients: invoices.additionalRecipients,
  issuedBy: invoices.issuedBy,
  thirdParty: invoices.thirdParty,
  simplifiedArt7273: invoices.simplifiedArt7273,
  withoutRecipientArt61d: invoices.withoutRecipientArt61d,
  coupon: invoices.coupon,
  rectificationType: invoices.rectificationType,
  rectifiedBaseAmount: invoices.rectifiedBaseAmount,
  rectifiedTaxAmount: invoices.rectifiedTaxAmount,
  rectifiedSurchargeAmount: invoices.rectifiedSurchargeAmount,
  correctedInvoices: invoices.correctedInvoices,
  substitutedInvoices: invoices.substitutedInvoices,
  totalAmount: invoices.totalAmount,
  totalTaxAmount: invoices.totalTaxAmount,
} satisfies Record<keyof StoredInvoiceContent, unknown>;

export interface StoredLine {
  taxType: string;
  regimeType: string | null;
  operationType: string;
  baseAmount: string;
  costBaseAmount: string | null;
  taxRate: string | null;
  taxAmount: string | null;
  surchargeRate: string | null;
  surchargeAmount: string | null;
}

/** A stored line's columns, whatever else the row holds. */
export function storedLineOf(l: StoredLine): StoredLine {
  return {
    taxType: l.taxType,
    regimeType: l.regimeType,
    operationType: l.operationType,
    baseAmount: l.baseAmount,
    costBaseAmount: l.costBaseAmount,
    taxRate: l.taxRate,
    taxAmount: l.taxAmount,
    surchargeRate: l.surchargeRate,
    surchargeAmount: l.surchargeAmount,
  };
}
