import { hashInput, sha256Hex } from './sha256-hex';

/** The RegistroAnulacion values that enter the huella: the cancelled invoice's id, the chain and the time. */
export interface CancellationHashFields {
  /** IDEmisorFacturaAnulada */
  issuerNif: string;
  /** NumSerieFacturaAnulada */
  invoiceNumber: string;
  /** FechaExpedicionFacturaAnulada, dd-mm-yyyy */
  invoiceDate: string;
  previousHash?: string;
  generatedAt: string;
}

/** The string the RegistroAnulacion huella is computed over (AEAT's huella specification). */
export function cancellationHashInput(f: CancellationHashFields): string {
  return hashInput([
    ['IDEmisorFacturaAnulada', f.issuerNif],
    ['NumSerieFacturaAnulada', f.invoiceNumber],
    ['FechaExpedicionFacturaAnulada', f.invoiceDate],
    ['Huella', f.previousHash],
    ['FechaHoraHusoGenRegistro', f.generatedAt],
  ]);
}

/** Huella of a RegistroAnulacion: uppercase hex SHA-256 of cancellationHashInput. */
export function computeCancellationHash(f: CancellationHashFields): string {
  return sha256Hex(cancellationHashInput(f));
}
