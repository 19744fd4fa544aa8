import type { VerifactuClient } from '../client.ts';
import { readInvoices } from './read-invoices.ts';

/** The most invoices the service takes in one batch call. */
export const MAX_BATCH = 1_000;

interface RowResult {
  index: number;
  status: number;
  id?: string;
  code?: string;
  detail?: string;
}

/** Registers the file's invoices in batches of up to 1,000; prints one JSON line per invoice, progress on stderr. */
export async function registerCommand(client: VerifactuClient, file: string, batch = MAX_BATCH): Promise<number> {
  const invoices = await readInvoices(file);
  let refused = 0;
  for (let start = 0; start < invoices.length; start += batch) {
    const results = await client.registerInvoices(invoices.slice(start, start + batch));
    for (const result of results) {
      const row: RowResult = { index: start + result.index, status: result.status };
      if ('data' in result && result.data) row.id = result.data.id;
      if ('problem' in result && result.problem) {
        refused++;
        Object.assign(row, { code: result.problem.code, detail: result.problem.detail });
      }
      process.stdout.write(`${JSON.stringify(row)}\n`);
    }
    const done = Math.min(start + batch, invoices.length);
    process.stderr.write(`${done}/${invoices.length} sent, ${done - refused} registered, ${refused} refused\n`);
  }
  return refused === 0 ? 0 : 1;
}
