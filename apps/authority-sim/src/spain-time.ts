import { formatGeneratedAt, fromAeatDate, madridToday, toAeatDate } from '@vf/core';

// AEAT answers and judges dates in Spanish peninsular time (TimestampPresentacion e.g. 2025-10-13T12:34:56+02:00).

/** 2025-10-13T12:34:56+02:00 */
export const madridTimestamp = formatGeneratedAt;

/** Today in Madrid as a sortable yyyymmdd number. */
export function madridDateNumber(date: Date): number {
  return Number(madridToday(date).replaceAll('-', ''));
}

/** dd-mm-yyyy -> yyyymmdd, or undefined when it is not a real calendar date. */
export function invoiceDateNumber(text: string): number | undefined {
  try {
    return Number(fromAeatDate(text).replaceAll('-', ''));
  } catch {
    return undefined;
  }
}

/** Today's date in Madrid as dd-mm-yyyy (FechaExpedicionFactura format). */
export function madridInvoiceDate(date: Date): string {
  return toAeatDate(madridToday(date));
}
