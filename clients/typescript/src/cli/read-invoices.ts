import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { InvoiceRequest } from '../operation-types.ts';

/** Sets `path` (`recipient.nif`, `breakdown.0.base_amount`) in `target`, making objects and arrays on the way. */
function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node: Record<string, unknown> = target;
  keys.slice(0, -1).forEach((key, i) => {
    node[key] ??= /^\d+$/.test(keys[i + 1]) ? [] : {};
    node = node[key] as Record<string, unknown>;
  });
  node[keys[keys.length - 1]] = value;
}

/**
 * One invoice per row; the header names each column's field, nested with dots (`breakdown.0.base_amount`). Empty
 * cells are left out; `true` and `false` are flags. `;` or `,` between fields, as the header line shows.
 */
export function invoicesFromCsv(text: string): InvoiceRequest[] {
  const header = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0];
  const rows = parse(text, { bom: true, columns: true, skip_empty_lines: true, delimiter: header.includes(';') ? ';' : ',' }) as Record<
    string,
    string
  >[];
  return rows.map((row) => {
    const invoice: Record<string, unknown> = {};
    for (const [column, cell] of Object.entries(row)) {
      if (cell === '') continue;
      setPath(invoice, column.trim(), cell === 'true' ? true : cell === 'false' ? false : cell);
    }
    return invoice as InvoiceRequest;
  });
}

/** The invoices of a `.csv` file, or of a `.json` file holding one invoice or an array of them. */
export async function readInvoices(file: string): Promise<InvoiceRequest[]> {
  const text = await readFile(file, 'utf8');
  if (file.toLowerCase().endsWith('.csv')) return invoicesFromCsv(text);
  const json = JSON.parse(text) as InvoiceRequest | InvoiceRequest[];
  return Array.isArray(json) ? json : [json];
}
