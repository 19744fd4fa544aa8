import { parse } from 'csv-parse/sync';
import { ApiError } from '../errors/api-error';

/** A VAT number starts with its country's two letters; a Spanish NIF never does. */
const VAT_NUMBER = /^\s*[A-Za-z]{2}/;

function refused(message: string): ApiError {
  return new ApiError('validation_failed', message, { errors: [{ field: 'body', code: 'invalid_format', message }] });
}

/**
 * A CSV upload as the list request it stands for: a header naming `tax_id` and, for Spanish NIFs, `name` (in any
 * order, other columns ignored), then a tax ID a line; `,` or `;` separated (as spreadsheets write it), with or without
 * a BOM. A tax ID of two leading letters is a VAT number for VIES, any other a NIF for the census.
 */
export function readTaxIdCsv(text: string): { tax_ids: ({ vat_number: string } | { nif: string; name: string })[] } {
  let records: string[][];
  try {
    records = parse(text, { bom: true, delimiter: [',', ';'], skip_empty_lines: true, trim: true, relax_column_count: true });
  } catch (error) {
    throw refused(`The CSV cannot be read: ${(error as Error).message}`);
  }
  const [header, ...rows] = records;
  const columns = (header ?? []).map((c) => c.toLowerCase());
  const taxIdAt = columns.indexOf('tax_id');
  const nameAt = columns.indexOf('name');
  if (taxIdAt < 0) throw refused('The CSV needs a header line naming its columns: tax_id and, for Spanish NIFs, name.');
  return {
    tax_ids: rows.map((row): { vat_number: string } | { nif: string; name: string } => {
      const taxId = row[taxIdAt] ?? '';
      return VAT_NUMBER.test(taxId) ? { vat_number: taxId } : { nif: taxId, name: nameAt < 0 ? '' : (row[nameAt] ?? '') };
    }),
  };
}
