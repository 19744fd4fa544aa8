import { hashInputValue as value, sha256Hex } from './sha256-hex';

/** The RegistroAlta values that enter the huella, each exactly as written in the XML. */
export interface RegistrationHashFields {
  issuerNif: string;
  invoiceNumber: string;
  /** dd-mm-yyyy */
  invoiceDate: string;
  invoiceType: string;
  /** CuotaTotal literal: "12.35" and "12.350" would hash differently, so pass what the XML carries. */
  totalTax: string;
  /** ImporteTotal literal. */
  total: string;
  /** Huella of the previous record; absent for the first record of a chain. */
  previousHash?: string;
  /** FechaHoraHusoGenRegistro, e.g. 2024-01-01T19:20:30+01:00 */
  generatedAt: string;
}

/** The string the RegistroAlta huella is computed over (AEAT's huella specification, field order is fixed). */
export function registrationHashInput(f: RegistrationHashFields): string {
  // hashInput's format written out in one template: this runs once per record registered.
  return (
    `IDEmisorFactura=${value(f.issuerNif)}&NumSerieFactura=${value(f.invoiceNumber)}` +
    `&FechaExpedicionFactura=${value(f.invoiceDate)}&TipoFactura=${value(f.invoiceType)}&CuotaTotal=${value(f.totalTax)}` +
    `&ImporteTotal=${value(f.total)}&Huella=${value(f.previousHash)}&FechaHoraHusoGenRegistro=${value(f.generatedAt)}`
  );
}

/** Huella of a RegistroAlta: uppercase hex SHA-256 of registrationHashInput. */
export function computeRegistrationHash(f: RegistrationHashFields): string {
  return sha256Hex(registrationHashInput(f));
}
