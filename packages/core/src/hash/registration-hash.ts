import { hashInput, sha256Hex } from './sha256-hex';

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
  return hashInput([
    ['IDEmisorFactura', f.issuerNif],
    ['NumSerieFactura', f.invoiceNumber],
    ['FechaExpedicionFactura', f.invoiceDate],
    ['TipoFactura', f.invoiceType],
    ['CuotaTotal', f.totalTax],
    ['ImporteTotal', f.total],
    ['Huella', f.previousHash],
    ['FechaHoraHusoGenRegistro', f.generatedAt],
  ]);
}

/** Huella of a RegistroAlta: uppercase hex SHA-256 of registrationHashInput. */
export function computeRegistrationHash(f: RegistrationHashFields): string {
  return sha256Hex(registrationHashInput(f));
}
