import { toAeatDate } from '../dates';
import type { RegistrationHashFields } from '../hash';
import type { NormalizedInvoice } from '../validation/types';

export interface RegistrationHashSource {
  invoice: Pick<NormalizedInvoice, 'invoiceNumber' | 'invoiceDate' | 'invoiceType' | 'totalTaxAmount' | 'totalAmount'>;
  issuerNif: string;
  /** Huella of the record before it in the chain; absent for the first. */
  previousHash?: string;
  /** FechaHoraHusoGenRegistro literal. */
  generatedAt: string;
}

/**
 * The literals of a RegistroAlta that its huella is computed over, exactly as buildRegistrationRecord writes them. A
 * writer that needs only the huella and the QR code's values (registering a batch) takes them from here instead of
 * building the whole record and dropping it: the record the worker rebuilds still hashes to the same huella.
 */
export function registrationHashFields(src: RegistrationHashSource): RegistrationHashFields {
  const { invoice } = src;
  return {
    issuerNif: src.issuerNif,
    invoiceNumber: invoice.invoiceNumber,
    invoiceDate: toAeatDate(invoice.invoiceDate),
    invoiceType: invoice.invoiceType,
    totalTax: invoice.totalTaxAmount,
    total: invoice.totalAmount,
    previousHash: src.previousHash,
    generatedAt: src.generatedAt,
  };
}
