export interface CsvColumn<Row> {
  header: string;
  /** Amounts and codes: written as numbers a spreadsheet can sum when they are plain numbers. Text otherwise. */
  number?: boolean;
  value(row: Row): string | number | null;
}
