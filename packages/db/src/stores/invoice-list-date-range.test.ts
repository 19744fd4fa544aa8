import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../testing';
import {
  DATE_RANGE_MAX_ROWS,
  FEW_IN_RANGE,
  INVOICE_SORTS,
  invoiceListStore,
  type InvoiceListFilters,
  type InvoiceSort,
} from './invoice-list-store';

let t: TestDatabase;
let account: string;
const accounts: string[] = [];

/**
 * A new account of 600 invoices registered three at a time (one group commit: equal registration times, ordered by
 * id), with totals that repeat, dated by `date` and numbered by `number` (of n, the invoice's place in its chain):
 * every tie-breaker of every sort is exercised.
 */
async function accountDated(date: SQL, count = 600, number = sql`'D-' || g.n`): Promise<string> {
  const r = await t.db.execute(sql`
    WITH a AS (INSERT INTO accounts (name, email, password_hash, api_key_digest, api_key_hint, plan_id)
               VALUES ('n', ${randomUUID() + '@x.es'}, 'h', ${randomUUID()}, 'vfk_', 'free') RETURNING id),
         s AS (INSERT INTO computer_systems (account_id, vendor_name, vendor_nif, name, version, installation_number, system_code)
               SELECT id, 'V', 'B85905495', 'S', '1', '1', 'S1' FROM a RETURNING id),
         tp AS (INSERT INTO taxpayers (account_id, nif, name) SELECT id, left(md5(random()::text), 9), 'T' FROM a RETURNING id, nif, account_id),
         c AS (INSERT INTO chains (taxpayer_id, nif, is_production) SELECT id, nif, false FROM tp RETURNING id),
         g AS (SELECT gen_random_uuid() AS id, n FROM generate_series(1, ${count}) n),
         i AS (INSERT INTO invoices (id, invoice_id, current_record_id, chain_id, account_id, taxpayer_id, computer_system_id, chain_seq,
                 invoice_number, invoice_date, invoice_type, description, total_amount, total_tax_amount, issuer_nif, issuer_name,
                 system_snapshot_id, is_production, generated_at_literal, generated_at, hash, authority_status, created_at)
               SELECT g.id, g.id, g.id, c.id, tp.account_id, tp.id, s.id, g.n, ${number}, ${date}, 'F1', 'd',
                 (g.n * 37) % 101, 0, tp.nif, 'T', gen_random_uuid(), false, '2025-01-01T10:00:00+01:00', now(), repeat('A', 64),
                 'accepted', timestamptz '2025-03-01 09:00+01' + (g.n / 3) * interval '1 minute'
               FROM g, c, tp, s RETURNING 1)
    SELECT (SELECT id FROM a) AS id, (SELECT count(*) FROM i) AS n`);
  return (r.rows[0] as { id: string }).id;
}

beforeAll(async () => {
  t = await createTestDatabase();
  // Dates shuffled against registration (back-dated and forward-dated invoices), over 40 days; and dates that follow
  // registration, 30 invoices a day over 20 days, as a till's do (a day then holds a whole page).
  accounts.push(await accountDated(sql`date '2025-03-01' + (g.n * 7) % 40`));
  accounts.push(await accountDated(sql`date '2025-03-01' + g.n / 30`));
  // More invoices in a range than are read whole and sorted (FEW_IN_RANGE): their own index is walked.
  accounts.push(await accountDated(sql`date '2025-03-01' + g.n % 10`, FEW_IN_RANGE + 600));
  // Numbers against the dates, a number on several days (ties broken by id across the days merged by number), and
  // numbers that run down as the dates run up.
  accounts.push(await accountDated(sql`date '2025-03-01' + (g.n * 7) % 40`, 600, sql`'N' || (g.n % 97)`));
  accounts.push(await accountDated(sql`date '2025-03-01' + g.n / 30`, 600, sql`'R-' || lpad((1000 - g.n)::text, 4, '0')`));
  await t.db.execute(sql`ANALYZE invoices`);
});
afterAll(async () => {
  await t.destroy();
});

const ORDER_KEYS: Record<string, string> = {
  created_at: 'created_at',
  invoice_date: 'invoice_date, created_at',
  invoice_number: 'invoice_number COLLATE "C"',
  total_amount: 'total_amount',
};

/** Every invoice of the range in the sort's order, read without limit: what the pages must add up to. */
async function expected(f: InvoiceListFilters, sort: InvoiceSort): Promise<string[]> {
  const dir = sort.startsWith('-') ? 'DESC' : 'ASC';
  const keys = `${ORDER_KEYS[sort.replace(/^-/, '')]}, id`
    .split(', ')
    .map((k) => `${k} ${dir}`)
    .join(', ');
  const { rows } = await t.db.execute<{ id: string }>(
    sql`SELECT id FROM invoices WHERE account_id = ${account} AND invoice_date >= coalesce(${f.dateFrom ?? null}::date, '-infinity')
        AND invoice_date <= coalesce(${f.dateTo ?? null}::date, 'infinity') ORDER BY ${sql.raw(keys)}`,
  );
  return rows.map((r) => r.id);
}

/** The list read page after page, each continuing from the last row of the one before (the API's cursor). */
async function byKeyset(f: InvoiceListFilters, sort: InvoiceSort, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let after: { value: string; id: string } | undefined;
  for (;;) {
    const page = await invoiceListStore.page(t.db, account, f, sort, after && { after }, limit);
    ids.push(...page.map((r) => r.id));
    if (page.length < limit) return ids;
    after = { value: page[limit - 1].sortValue, id: page[limit - 1].id };
  }
}

/** The list read by numbered pages (the dashboard's). */
async function byOffset(f: InvoiceListFilters, sort: InvoiceSort, limit: number): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += limit) {
    const page = await invoiceListStore.page(t.db, account, f, sort, { offset }, limit);
    ids.push(...page.map((r) => r.id));
    if (page.length < limit) return ids;
  }
}

const RANGES: InvoiceListFilters[] = [
  { dateFrom: '2025-03-11', dateTo: '2025-03-20' },
  { dateFrom: '2025-03-15', dateTo: '2025-03-15' },
  { dateFrom: '2025-04-01' },
  { dateTo: '2025-03-05' },
  { dateFrom: '2025-01-01', dateTo: '2025-12-31' },
  { dateFrom: '2025-06-01' },
];

test.each(INVOICE_SORTS)('a date range sorted by %s is paged through by cursor and by number, every invoice once', async (sort) => {
  for (const [range, of] of RANGES.flatMap((range) => [0, 1, 3, 4].map((i) => [range, accounts[i]] as const))) {
    account = of;
    const all = await expected(range, sort);
    expect(await byKeyset(range, sort, 23)).toEqual(all);
    expect(await byOffset(range, sort, 40)).toEqual(all);
  }
});

test('a page too large to read day by day lists the same invoices', async () => {
  account = accounts[0];
  const range = { dateFrom: '2025-03-02', dateTo: '2025-04-08' };
  const all = await expected(range, '-created_at');
  expect(all.length).toBeGreaterThan(DATE_RANGE_MAX_ROWS);
  expect(await byKeyset(range, '-created_at', DATE_RANGE_MAX_ROWS + 50)).toEqual(all);
  expect(await byKeyset(range, 'created_at', DATE_RANGE_MAX_ROWS)).toEqual(all.slice().reverse());
});

test('a date range with another filter keeps only the invoices matching both', async () => {
  account = accounts[0];
  const range = { dateFrom: '2025-03-11', dateTo: '2025-03-20' };
  const all = await expected(range, '-created_at');
  const { rows } = await t.db.execute<{ id: string }>(
    sql`SELECT id FROM invoices WHERE account_id = ${account} AND invoice_number LIKE 'D-1%'`,
  );
  const prefixed = new Set(rows.map((r) => r.id));
  const both = await invoiceListStore.page(t.db, account, { ...range, numberPrefix: 'D-1' }, '-created_at', undefined, 200);
  expect(both.map((r) => r.id)).toEqual(all.filter((id) => prefixed.has(id)));
  expect(both.length).toBeGreaterThan(0);
  // An empty filter list is no filter: the range alone.
  expect((await invoiceListStore.page(t.db, account, { ...range, statuses: [] }, '-created_at', undefined, 200)).map((r) => r.id)).toEqual(
    all.slice(0, 200),
  );
});

test.each(INVOICE_SORTS)('a range of more invoices than are sorted whole, sorted by %s, starts with the same pages', async (sort) => {
  account = accounts[2];
  for (const range of [
    { dateFrom: '2025-03-01', dateTo: '2025-03-10' },
    { dateFrom: '2025-03-04', dateTo: '2025-03-04' },
    { dateTo: '2025-03-08' },
  ]) {
    const all = await expected(range, sort);
    const first = await invoiceListStore.page(t.db, account, range, sort, undefined, 51);
    const last = first[50];
    const second = await invoiceListStore.page(t.db, account, range, sort, { after: { value: last.sortValue, id: last.id } }, 51);
    const numbered = await invoiceListStore.page(t.db, account, range, sort, { offset: 150 }, 50);
    expect([first, second, numbered].map((page) => page.map((r) => r.id))).toEqual([
      all.slice(0, 51),
      all.slice(51, 102),
      all.slice(150, 200),
    ]);
  }
});
