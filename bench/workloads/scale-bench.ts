import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readPkcs12 } from '@vf/certificates';
import { TEST_CERT_FILES } from '@vf/certificates/testing';
import { createDatabase, signedRecordStore } from '@vf/db';
import { signingIdentity, signRecord } from '@vf/signing';
import { madridDate } from '../load/invoice-body';
import { f1Request } from '@vf/core/testing';
import type { ScaleResult, ScaleList } from '../report/result-types';
import { percentile, round } from '../report/stats';
import { cpuMs, rssMb } from '../stack/process-meter';
import type { Stack } from '../stack/stack';
import { fillChain, recipientNifOf } from '../scale/fill-chain';
import { createTenant } from './tenant';

/** Requests of each list query: the first warms up, the others are measured. */
const LIST_REQUESTS = 11;
const SCALE_NIF = 900;

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

async function get(url: string, apiKey: string): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
  const body = await res.text();
  return { status: res.status, body, ms: performance.now() - started };
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

/** The template record the chain is filled from, registered through the API, and its chain. */
async function registerTemplate(
  stack: Stack,
  apiKey: string,
  taxpayerId: string,
  systemId: string,
): Promise<{ id: string; chainId: string }> {
  const res = await fetch(`${stack.apiUrl}/api/v1/invoices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(
      f1Request({ taxpayer_id: taxpayerId, computer_system_id: systemId, invoice_number: 'S-00000001', invoice_date: madridDate() }),
    ),
  });
  const body = (await res.json()) as { data: { id: string } };
  if (res.status !== 201) throw new Error(`registering the template answered ${res.status}`);
  const { rows } = await stack.pool.query<{ chain_id: string }>('SELECT chain_id FROM invoices WHERE id = $1', [body.data.id]);
  return { id: body.data.id, chainId: rows[0].chain_id };
}

/**
 * Every record of the chain but the queued ones given a signed record the size the workers keep: the template signed
 * first (with the platform's test certificate, whose dictionary it becomes), then the chain's second record, kept
 * through the store packed against it as any later record is; its packed bytes are copied to the others. Copies do
 * not verify: this runs after the verification is measured, for the bytes only.
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
    const xml = (await get(`${stack.apiUrl}/api/v1/invoices/${id}/records/${id}/xml`, apiKey)).body.replace(/^<\?xml[^>]*\?>\n/, '');
    await signedRecordStore.keep(database.db, [{ invoiceId: id, xml: signRecord(xml, identity, { at: new Date() }) }]);
  }
  await database.close();
  await stack.pool.query(
    `INSERT INTO signed_records (invoice_id, certificate_id, packed, signed_at)
     SELECT i.id, t.certificate_id, t.packed, t.signed_at FROM invoices i, signed_records t
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
 * the verification of the whole chain (records a second, the API's CPU and peak RSS), and PostgreSQL's bytes per
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
  let peakRss = rssMb(stack.api.pid) ?? 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(stack.api.pid) ?? 0)), 200);
  const cpuBefore = cpuMs(stack.api.pid);
  const verification = await get(`${stack.apiUrl}/api/v1/chain/${nif}/verification`, apiKey).finally(() => clearInterval(sampler));
  const cpuAfter = cpuMs(stack.api.pid);
  if (verification.status !== 200)
    throw new Error(`the chain's verification answered ${verification.status}: ${verification.body.slice(0, 300)}`);
  const verdict = JSON.parse(verification.body) as { data: { valid: boolean; verified: number } };
  const verified = verdict.data.verified;
  const verifyResult = {
    records: verified,
    ok: verdict.data.valid,
    ms: round(verification.ms, 0)!,
    recordsPerSecond: Math.round(verified / (verification.ms / 1000)),
    apiCpuMsPerRecord: cpuBefore === null || cpuAfter === null ? null : round((cpuAfter - cpuBefore) / Math.max(verified, 1), 4),
    apiPeakRssMb: Math.round(peakRss),
  };
  console.log(
    `  verification: ${verified} records in ${verifyResult.ms} ms (${verifyResult.recordsPerSecond}/s), API peak RSS ${verifyResult.apiPeakRssMb} MB`,
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
    bytesPerInvoice: stored.bytes,
    tables: stored.tables,
  };
}
