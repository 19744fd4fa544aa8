import { alias } from 'drizzle-orm/pg-core';
import { invoices } from '../schema';

/**
 * The record a chain record links back to, as the table `prev` to left-join on `invoices.previousInvoiceId`, and the
 * columns of it that the record's Encadenamiento (and so its rebuilt huella) needs.
 */
export function previousRecord() {
  const prev = alias(invoices, 'prev');
  return {
    prev,
    columns: { prevIssuerNif: prev.issuerNif, prevNumber: prev.invoiceNumber, prevDate: prev.invoiceDate, prevHash: prev.hash },
  };
}
