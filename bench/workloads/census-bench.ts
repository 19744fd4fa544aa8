import { setTimeout as sleep } from 'node:timers/promises';
import { f1Request } from '@vf/core/testing';
import { madridDate } from '../load/invoice-body';
import { summarizeLatencies } from '../report/stats';
import type { Stack } from '../stack/stack';
import { benchNif, createTenant } from './tenant';

type Latency = { p50: number; p95: number };

/** The census workload: a list of tax IDs checked by the worker, and what `recipient_check=warn` adds to a registration. */
export interface CensusResult {
  list: { rows: number; seconds: number; rowsPerSecond: number };
  registrations: { count: number; plainMs: Latency; warnMs: Latency; addedP50Ms: number };
}

const LIST_TIMEOUT_MS = 600_000;

async function call(
  url: string,
  apiKey: string,
  init: { method: string; body?: unknown },
): Promise<{ status: number; json: { data: { id: string; status?: string; answered?: number } } }> {
  const res = await fetch(url, {
    method: init.method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${init.method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return { status: res.status, json: JSON.parse(text) as { data: { id: string; status?: string; answered?: number } } };
}

/** From the list's POST to its last answer, as a client polling it sees it. */
async function timeList(stack: Stack, apiKey: string, rows: number, firstNif: number): Promise<CensusResult['list']> {
  const api = `${stack.apiUrl}/api/v1`;
  const taxIds = Array.from({ length: rows }, (_, i) => ({ nif: benchNif(firstNif + i), name: `CLIENTE BENCH ${i + 1} SL` }));
  const started = performance.now();
  const created = await call(`${api}/tax-ids/lists`, apiKey, { method: 'POST', body: { tax_ids: taxIds } });
  const id: string = created.json.data.id;
  for (;;) {
    const list = await call(`${api}/tax-ids/lists/${id}`, apiKey, { method: 'GET' });
    // The full list is checked here, not in npm test (e2e/src/census/tax-id-lists.test.ts checks a smaller one).
    if (list.json.data.status === 'done' && list.json.data.answered !== rows)
      throw new Error(`the list of ${rows} was done with ${list.json.data.answered} rows answered`);
    if (list.json.data.status === 'done') break;
    if (performance.now() - started > LIST_TIMEOUT_MS)
      throw new Error(`the list of ${rows} was not done after ${LIST_TIMEOUT_MS / 1000} s`);
    await sleep(100);
  }
  const seconds = (performance.now() - started) / 1000;
  return { rows, seconds: Math.round(seconds * 100) / 100, rowsPerSecond: Math.round(rows / seconds) };
}

/**
 * One client registering one at a time, alternating a plain registration and one with `recipient_check=warn`, each
 * with a recipient the census has not been asked about (so every warn asks the census: its full cost, no cache).
 */
async function timeRegistrations(
  stack: Stack,
  apiKey: string,
  tenant: { systemId: string; taxpayerIds: string[] },
  count: number,
  firstNif: number,
) {
  const api = `${stack.apiUrl}/api/v1`;
  const plain: number[] = [];
  const warn: number[] = [];
  for (let i = 0; i < count * 2; i++) {
    const checked = i % 2 === 1;
    const body = f1Request({
      taxpayer_id: tenant.taxpayerIds[0],
      computer_system_id: tenant.systemId,
      invoice_number: `CENSUS-${i + 1}`,
      invoice_date: madridDate(),
      recipient: { name: `CLIENTE BENCH ${i} SL`, nif: benchNif(firstNif + i) },
    });
    const started = performance.now();
    await call(`${api}/invoices${checked ? '?recipient_check=warn' : ''}`, apiKey, { method: 'POST', body });
    (checked ? warn : plain).push(performance.now() - started);
  }
  const summary = (ms: number[]): Latency => {
    const s = summarizeLatencies(ms);
    return { p50: s.p50 ?? 0, p95: s.p95 ?? 0 };
  };
  const plainMs = summary(plain);
  const warnMs = summary(warn);
  return { count, plainMs, warnMs, addedP50Ms: round(warnMs.p50 - plainMs.p50) };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** The census workload on a stack with one worker (lists are checked by the workers). */
export async function runCensusBench(stack: Stack, opts: { rows: number; registrations: number }): Promise<CensusResult> {
  // Allowances of checks must never be what stops the load.
  await stack.pool.query('UPDATE plans SET monthly_tax_id_checks = 2000000000');
  const tenant = await createTenant(stack.apiUrl, 'census', 1, 5_000_000);
  const list = await timeList(stack, tenant.apiKey, opts.rows, 6_000_000);
  const registrations = await timeRegistrations(stack, tenant.apiKey, tenant, opts.registrations, 7_000_000);
  return { list, registrations };
}
