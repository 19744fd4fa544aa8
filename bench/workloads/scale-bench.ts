import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readPkcs12 } from '@vf/certificates';
import { TEST_CERT_FILES } from '@vf/certificates/testing';
// Loaded for its writers: the store keeps a signed record as its signature's parts only where they can rebuild it.
import '@vf/chain';
import { createDatabase, signedRecordStore } from '@vf/db';
import { signingIdentity, signRecord } from '@vf/signing';
import type { ScaleResult, ScaleList } from '../report/result-types';
import { percentile, round } from '../report/stats';
import type { Stack } from '../stack/stack';
import { fillChain, recipientNifOf } from '../scale/fill-chain';
import { get, recordXml, registerTemplate } from '../scale/scale-http';
import { measureVerification } from '../scale/measure-verification';
import { measureSignedVerification } from '../scale/signed-chain';
import { createTenant } from './tenant';

/** Requests of each list query: the first warms up, the others are measured. */
const LIST_REQUESTS = 11;
const SCALE_NIF = 900;
/** The chain whose signatures are verified: big enough for a steady rate, small enough to sign in seconds. */
const SIGNED_CHAIN_RECORDS = 10_000;

/** Every documented list query of GET /invoices (each filter, each sort), as a customer's client would ask. */
export function listQueries(taxpayerId: string): { name: string; query: string }[] {
  const sorts = [
    '-created_at',
    'created_at',
    '-invoice_date',
    'invoice_date',
    '-invoice_number',
    'invoice_number',
    '-total_amount',
    'total_amount',
  ];
  return [
    ...sorts.map((sort) => ({ name: `sort=${sort}`, query: `sort=${sort}` })),
    { name: 'status=accepted', query: 'status=accepted' },
    { name: 'status=rejected', query: 'status=rejected' },
    { name: 'status=queued,error', query: 'status=queued,error' },
    { name: 'invoice_type=F1', query: 'invoice_type=F1' },
    { name: 'kind=corrective', query: 'kind=corrective' },
    { name: 'date_from & date_to (a month)', query: 'date_from=2025-01-01&date_to=2025-01-31' },
    // The fill's first month and day: behind every later invoice, whatever the fill's size (decision 0066).
    { name: 'a month, sort=-invoice_number', query: 'date_from=2025-01-01&date_to=2025-01-31&sort=-invoice_number' },
    { name: 'a day, sort=-total_amount', query: 'date_from=2025-01-15&date_to=2025-01-15&sort=-total_amount' },
    { name: 'recipient_nif', query: `recipient_nif=${recipientNifOf(42)}` },
    { name: 'number_prefix', query: 'number_prefix=S-0000042' },
    { name: 'q', query: 'q=0004217' },
    { name: 'taxpayer_id', query: `taxpayer_id=${taxpayerId}` },
    { name: 'status=accepted, sort=-total_amount', query: 'status=accepted&sort=-total_amount' },
  ];
}

async function measureList(stack: Stack, apiKey: string, name: string, query: string): Promise<ScaleList> {
  const url = `${stack.apiUrl}/api/v1/invoices?limit=50&${query}`;
  const times: number[] = [];
  let total: number | null = null;
  let totalExact: boolean | null = null;
  for (let i = 0; i < LIST_REQUESTS; i += 1) {
    const answer = await get(url, apiKey);
    if (answer.status !== 200) throw new Error(`GET /invoices?${query} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    if (i === 0) {
      const page = JSON.parse(answer.body) as { total: number; total_exact?: boolean };
      total = page.total;
      totalExact = page.total_exact ?? true;
    } else times.push(answer.ms);
  }
  return {
    name,
    query,
    p50Ms: round(
      percentile(
        [...times].sort((a, b) => a - b),
        50,
      ),
      2,
    )!,
    total,
    totalExact,
  };
}

/**
 * Every record of the chain but the queued ones given a signed record the size the workers keep: the template signed
 * first (with the platform's test certificate, whose dictionary it becomes), then the chain's second record, kept
 * through the store as a sender keeps it (named after its record, kept as its signature's parts, decision 0064); its
 * row is copied to the others. Copies do not verify: this runs after the verification is measured, for the bytes only.
 */
async function signRecords(stack: Stack, certDir: string, apiKey: string, template: string, chainId: string): Promise<void> {
  const passwords = JSON.parse(readFileSync(path.join(certDir, TEST_CERT_FILES.passwords), 'utf8')) as Record<string, string>;
  const identity = signingIdentity(
    readPkcs12(readFileSync(path.join(certDir, TEST_CERT_FILES.platform)), passwords[TEST_CERT_FILES.platform]),
  );
  const { rows } = await stack.pool.query<{ id: string }>('SELECT id FROM invoices WHERE chain_id = $1 AND chain_seq = 2', [chainId]);
  const second = rows[0].id;
  const database = createDatabase(stack.env.DATABASE_URL!, { max: 1 });
  for (const id of [template, second]) {
    const xml = await recordXml(stack, apiKey, id);
    const signed = signRecord(xml, identity, { at: new Date(), id: `xmldsig-${id}` });
    await signedRecordStore.keep(database.db, [{ invoiceId: id, xml: signed }]);
  }
  await database.close();
  await stack.pool.query(
    `INSERT INTO signed_records (invoice_id, certificate_id, packed, form, signature_value, signing_time, signature_id, signed_at)
     SELECT i.id, t.certificate_id, t.packed, t.form, t.signature_value, t.signing_time, t.signature_id, t.signed_at
     FROM invoices i, signed_records t
     WHERE t.invoice_id = $1 AND i.chain_id = $2 AND i.id <> ALL($3::uuid[]) AND i.authority_status <> 'queued'`,
    [second, chainId, [template, second]],
  );
  await stack.pool.query('VACUUM (ANALYZE) signed_records');
}

async function bytesPerInvoice(stack: Stack): Promise<{ bytes: number; tables: { table: string; bytes: number }[] }> {
  const { rows } = await stack.pool.query<{ table: string; bytes: string }>(
    `SELECT c.relname AS table, pg_total_relation_size(c.oid)::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname IN ('invoices', 'invoice_lines', 'invoice_status_events', 'signed_records', 'signing_certificates', 'system_snapshots')
     ORDER BY 2 DESC`,
  );
  const [{ n }] = (await stack.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM invoices')).rows;
  const tables = rows.map((r) => ({ table: r.table, bytes: Math.round(Number(r.bytes) / n) }));
  return { bytes: tables.reduce((s, t) => s + t.bytes, 0), tables };
}

/**
 * The scale workload: one account whose taxpayer's chain is filled to `invoices` records (bench/scale/fill-chain.ts),
 * then, on the idle API: the first page of every documented list query (p50 of ten), the CSV export of every invoice,
 * the verification of the whole chain (records a second, the API's CPU and peak RSS), the verification of a chain of
 * 10,000 records with real signatures (bench/scale/signed-chain.ts), and PostgreSQL's bytes per
 * invoice once the sent records have their signed records.
 */
export async function runScaleBench(stack: Stack, certDir: string, invoices: number): Promise<ScaleResult> {
  const tenant = await createTenant(stack.apiUrl, 'scale', 1, SCALE_NIF);
  const { apiKey, taxpayerIds, systemId } = tenant;
  const template = await registerTemplate(stack, apiKey, taxpayerIds[0], systemId);
  const fill = await fillChain(stack.pool, template.chainId, invoices, (line) => process.stdout.write(`\r${line}`));
  console.log(`\n  filled in ${(fill.fillMs / 1000).toFixed(0)} s`);

  const lists: ScaleList[] = [];
  for (const { name, query } of listQueries(taxpayerIds[0])) {
    lists.push(await measureList(stack, apiKey, name, query));
    console.log(`  GET /invoices ${name}: p50 ${lists.at(-1)!.p50Ms} ms`);
  }

  const exportStarted = performance.now();
  const csv = await get(`${stack.apiUrl}/api/v1/invoices/export?format=csv`, apiKey);
  const exported = {
    rows: csv.body.split('\r\n').length - 2,
    bytes: Buffer.byteLength(csv.body),
    ms: round(performance.now() - exportStarted, 0)!,
  };
  console.log(`  export: ${exported.rows} rows, ${exported.bytes} bytes, ${exported.ms} ms`);

  const nif = (await stack.pool.query<{ nif: string }>('SELECT nif FROM chains WHERE id = $1', [template.chainId])).rows[0].nif;
  const verifyResult = await measureVerification(stack, apiKey, nif);
  console.log(
    `  verification: ${verifyResult.records} records in ${verifyResult.ms} ms (${verifyResult.recordsPerSecond}/s), API peak RSS ${verifyResult.apiPeakRssMb} MB`,
  );
  const signedRecords = Math.min(invoices, SIGNED_CHAIN_RECORDS);
  const signedVerification = await measureSignedVerification(stack, certDir, signedRecords);
  console.log(
    `  verification with signatures: ${signedVerification.records} records (${signedVerification.signatures?.valid ?? 0} signed) in ${signedVerification.ms} ms (${signedVerification.recordsPerSecond}/s)`,
  );

  await signRecords(stack, certDir, apiKey, template.id, template.chainId);
  const stored = await bytesPerInvoice(stack);
  console.log(`  stored: ${stored.bytes} bytes an invoice`);
  return {
    invoices,
    fillMs: fill.fillMs,
    lists,
    export: exported,
    verification: verifyResult,
    signedVerification,
    bytesPerInvoice: stored.bytes,
    tables: stored.tables,
  };
}
