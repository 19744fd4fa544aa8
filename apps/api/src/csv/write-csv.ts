import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CsvColumn } from '@vf/contract';
import { stringify } from 'csv-stringify';
import { spreadsheetCell } from './spreadsheet-cell';

/**
 * The one CSV writer of the service (the API's export and the dashboard's): UTF-8 with a BOM (so Excel reads it as
 * UTF-8), `;` separated, CRLF, quoted where needed, every cell through spreadsheetCell so none runs as a formula.
 * The first batch is read before anything is written: if that read fails, the returned promise rejects with `out`
 * untouched and `begin` never called (an ordinary error answer is still possible). `begin` runs just before the
 * first byte (set the response's headers there). A later failure rejects after destroying `out`.
 */
export async function writeCsv<Row>(
  columns: CsvColumn<Row>[],
  batches: AsyncIterable<Row[]>,
  out: Writable,
  begin: () => void = () => undefined,
): Promise<void> {
  const iterator = batches[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* records() {
    for (let batch = first; !batch.done; batch = await iterator.next()) {
      for (const row of batch.value) yield columns.map((c) => spreadsheetCell(c.value(row), c.number));
    }
  }
  begin();
  await pipeline(
    Readable.from(records()),
    stringify({
      delimiter: ';',
      bom: true,
      record_delimiter: 'windows',
      header: true,
      columns: columns.map((c) => spreadsheetCell(c.header)),
    }),
    out,
  );
}
