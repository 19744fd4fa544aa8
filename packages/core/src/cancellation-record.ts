import type { ChainLink, InvoiceId, RegistrationRecord, SistemaInformatico } from './registration-record';

/**
 * A RegistroAnulacion exactly as it is hashed and sent (literals as in the XML). It is a link of the
 * taxpayer's chain like any alta: the next record chains to it with the anulada identifiers (AEAT web-service
 * description §9.3.1).
 */
export interface CancellationRecord {
  kind: 'cancellation';
  /** IDFactura of the cancelled invoice (IDEmisorFacturaAnulada, NumSerieFacturaAnulada, FechaExpedicionFacturaAnulada dd-mm-yyyy). */
  id: InvoiceId;
  /** RefExterna: our invoice id, echoed back on the response line. */
  externalRef?: string;
  /** SinRegistroPrevio = S: the authority holds no alta of this invoice (never sent, or rejected). */
  sinRegistroPrevio?: boolean;
  /** RechazoPrevio = S: a previous anulación of this invoice was rejected. */
  rechazoPrevio?: boolean;
  /** Encadenamiento: absent means PrimerRegistro = S. */
  previous?: ChainLink;
  system: SistemaInformatico;
  /** FechaHoraHusoGenRegistro */
  generatedAt: string;
  /** Huella (uppercase hex SHA-256 of the anulación fields, AEAT's huella specification) */
  hash: string;
}

/** Any link of a taxpayer's chain, in generation order. */
export type ChainRecord = RegistrationRecord | CancellationRecord;

export function isCancellation(record: ChainRecord): record is CancellationRecord {
  return record.kind === 'cancellation';
}

/**
 * What the next record's Encadenamiento/RegistroAnterior carries: the record's invoice identifiers (for an
 * anulación, those of the cancelled invoice) and its huella.
 */
export function chainLinkOf(record: ChainRecord): ChainLink {
  return { issuerNif: record.id.issuerNif, invoiceNumber: record.id.invoiceNumber, invoiceDate: record.id.invoiceDate, hash: record.hash };
}
