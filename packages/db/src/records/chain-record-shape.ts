import type { SistemaInformatico } from '@vf/core';
import type { RecordWarningJson } from '../schema';
import type { StoredInvoiceContent, StoredLine } from '../stores/chain-append-read-store';

/**
 * A chain record as stored: a registration (an invoice's first record), a correction or a cancellation. The one
 * description of what a record row holds, what the append writes (chain-append-write-store.ts) and what the stores
 * read back; `@vf/chain` builds it with its huella and rebuilds the record from it for sending.
 */
export interface ChainRecordRow extends StoredInvoiceContent {
  id: string;
  /** The invoice's first record: the record's own id for a registration. */
  invoiceId: string;
  recordType: 'registration' | 'correction' | 'cancellation';
  accountId: string;
  chainSeq: number;
  warnings: RecordWarningJson[];
  subsanacion: boolean;
  rechazoPrevio: 'S' | 'X' | null;
  sinRegistroPrevio: boolean;
  cancellationReason: string | null;
  issuerNif: string;
  issuerName: string;
  systemSnapshot: SistemaInformatico;
  isProduction: boolean;
  generatedAtLiteral: string;
  generatedAt: Date;
  previousInvoiceId: string | null;
  previousHash: string | null;
  hash: string;
  /** The QR code's URL, built with the record; not a column: rebuilt from the row when read (decision 0065). */
  qrUrl: string;
  /** The QR code points at ValidarQRNoVerifactu (column qr_no_verifactu, kept only when true). */
  qrNoVerifactu: boolean;
  /** The sandbox scenario the record goes under, on a scenario chain only; kept beside the record, never in it. */
  sandboxScenario?: string | null;
}

export interface ChainRecordLine extends StoredLine {
  /** The record the line belongs to. */
  invoiceId: string;
  lineNo: number;
}

/** The computer system columns a record's SistemaInformatico is made of. */
export interface RecordSystem {
  vendorName: string;
  vendorNif: string;
  name: string;
  systemCode: string;
  version: string;
  installationNumber: string;
  onlySupportsVerifactu: boolean;
  supportsMultipleTaxpayers: boolean;
}

/**
 * What rebuilding a stored chain record needs: the columns of its row (ChainRecordRow, as the writer built it), its
 * lines and the previous record as it was hashed in.
 */
export interface StoredChainRecord
  extends
    StoredInvoiceContent,
    Pick<
      ChainRecordRow,
      | 'id'
      | 'subsanacion'
      | 'rechazoPrevio'
      | 'sinRegistroPrevio'
      | 'issuerNif'
      | 'issuerName'
      | 'systemSnapshot'
      | 'generatedAtLiteral'
      | 'hash'
    > {
  recordType: string;
  /** The previous record of the chain as it was hashed into this one; null for the first record. */
  previous: { issuerNif: string; invoiceNumber: string; invoiceDate: string; hash: string } | null;
  lines: StoredLine[];
}
